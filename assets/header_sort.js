/* A click anywhere on a sortable DataTable's column header sorts that column, as people expect
 * from a spreadsheet (dash_table sorts only when its small arrow icon is hit, and the Datasets
 * page says "click a column header to sort"). The click is handed to the header's own sort
 * icon, so dash_table keeps owning the sort state (and its cycle: ascending, descending, none).
 * Delegated from the document, so tables drawn later are covered. */
(function () {
    'use strict';
    document.addEventListener('click', function (event) {
        const target = event.target;
        if (!(target instanceof Element) || target.closest('.column-header--sort')) {
            return;
        }
        const header = target.closest('th.dash-header');
        if (!header || !header.closest('.sort-by-header')) {
            return;
        }
        const icon = header.querySelector('.column-header--sort');
        if (icon) {
            icon.click();
        }
    });
}());
