/* HtmlBlock (copa_dash/ui/html_block.py): a div whose content is HTML made on the server from
 * escaped text. Setting innerHTML once is much cheaper, on every slider move, than parsing
 * Markdown and reconciling the element tree it makes. */
(function () {
    const components = window.copa_components = window.copa_components || {};
    components.HtmlBlock = function HtmlBlock(props) {
        return window.React.createElement('div', {
            id: props.id,
            className: props.className,
            dangerouslySetInnerHTML: {__html: props.html || ''},
        });
    };
}());
