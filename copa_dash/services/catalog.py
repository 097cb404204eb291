"""One catalogue over bundled datasets and uploaded ones.

A dataset reference is a bundled manifest name (``open-llm-leaderboard-v2``) or an
uploaded dataset's id (32 hex characters; 64 for uploads stored before owner tokens).
:func:`open_dataset` turns either into a :class:`OpenedDataset` with the table, a stable
cache id and the texts the page shows.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from ..core.errors import InvalidInputError
from ..data.bundled import list_datasets, load_bundled
from ..data.catalog_texts import catalog_texts
from ..data.schema import DefaultView, EvalTable
from . import pending_work
from .recent import RecentValues
from .store import open_store

_UPLOAD_ID = re.compile(r"^[0-9a-f]{32,128}$")


@dataclass(frozen=True)
class OpenedDataset:
    """A table ready to explore, with what the page says about it."""

    ref: str
    cache_id: str
    table: EvalTable
    title: str
    description: str
    source: str
    licence: str
    default_view: DefaultView | None
    kind: str  # "bundled" | "uploaded"
    paired_metrics: tuple[str, ...] = ()
    task_names: str | None = None  # metadata column naming each task (catalog.json)


@dataclass(frozen=True)
class CatalogEntry:
    """A line of the dataset picker and of the Datasets page's catalogue.

    ``kind`` is "bundled" or "uploaded"; ``mine`` marks an upload this browser owns (it can
    delete it). ``n_objectives`` is None where unknown; ``date`` is the snapshot or measurement
    date of a bundled table (``YYYY[-MM[-DD]]`` or "generated"), the upload day of an upload.
    """

    ref: str
    title: str
    description: str
    kind: str
    n_rows: int
    n_objectives: int | None = None
    domain: str = ""
    source: str = ""
    date: str = ""
    learn: str = ""
    mine: bool = False

    @property
    def origin(self) -> str:
        """Where the entry comes from, in the page's words."""
        if self.kind == "bundled":
            return "bundled"
        return "your upload" if self.mine else "shared upload"


def is_upload_id(ref: str) -> bool:
    """True when ``ref`` has the form of an uploaded dataset's id."""
    return bool(_UPLOAD_ID.match(ref or ""))


# Parsed bundled tables are immutable and identical in every worker, so a small per-process
# memo of them is safe (analysis results go to the shared cache); its bytes count against the
# worker's COPA_MEMORY_CACHE_MB like the other in-process caches.
_recent_bundled = RecentValues(entries=32, share=0.15, name="bundled tables")


def _bundled(name: str) -> OpenedDataset:
    kept = _recent_bundled.get(name)
    if kept is None:
        kept = _open_bundled(name)
        _recent_bundled.put(name, kept, nbytes=int(kept.table.frame.memory_usage(deep=True).sum()))
    return kept


def _open_bundled(name: str) -> OpenedDataset:
    table, info = load_bundled(name)
    digest = hashlib.sha256()
    digest.update(name.encode())
    digest.update(str(info.file).encode())
    digest.update(str(info.n_rows).encode())
    digest.update(",".join(map(str, table.frame.columns)).encode())
    digest.update(table.frame.to_csv(index=False).encode()[:1_000_000])
    return OpenedDataset(
        ref=name, cache_id="bundled-" + digest.hexdigest()[:24], table=table, title=info.title,
        description=info.description, source=info.source, licence=info.licence,
        default_view=info.default_view, kind="bundled",
        paired_metrics=tuple(getattr(info, "paired_metrics", ()) or ()),
        task_names=getattr(catalog_texts().get(name), "task_names", None))


# Tables a notebook session explores (copa_dash.explore): they stay in this process, the
# kernel's, and are found by the pages under their ``notebook-...`` reference.
_IN_MEMORY: dict[str, OpenedDataset] = {}


def keep_in_memory(opened: OpenedDataset) -> str:
    """Make ``opened`` reachable by :func:`open_dataset` under ``opened.ref`` in this
    process (no upload, nothing written); returns the reference."""
    _IN_MEMORY[opened.ref] = opened
    return opened.ref


def open_dataset(ref: str, settings=None) -> OpenedDataset:
    """Open a bundled dataset by name or an uploaded one by id.

    Raises
    ------
    InvalidInputError
        If no dataset has that name or id.
    """
    if not ref:
        raise InvalidInputError("choose a dataset")
    if ref in _IN_MEMORY:
        return _IN_MEMORY[ref]
    if is_upload_id(ref):
        if settings is None:
            raise InvalidInputError("uploaded datasets need the instance's settings")
        # a just-saved upload's first view may be being computed (services/first_view.py):
        # take its results rather than compute them a second time
        pending_work.wait_for(ref, lock_dir=pending_work.lock_dir(settings))
        table, info = open_store(settings).load_with_info(ref)   # one read of the record
        name = info.get("name")
        return OpenedDataset(
            ref=ref, cache_id=ref, table=table, title=name or f"upload {ref[:8]}",
            description="A table uploaded to this instance.", source="uploaded", licence="",
            default_view=None, kind="uploaded")
    return _bundled(ref)


def file_stem(what: str, ref: str, settings=None) -> str:
    """A download's file name without its extension: ``what`` and the dataset, by its
    short name when bundled, by its own name when uploaded (never the 32-character id;
    a CSV was ``copa-ranking.csv`` for every dataset). Letters, digits and dashes only.

    >>> file_stem("copa-ranking", "open-llm-leaderboard-v2")
    'copa-ranking-open-llm-leaderboard-v2'
    >>> file_stem("copa-ranking", "")
    'copa-ranking'
    """
    name = ref if ref and not is_upload_id(ref) else (dataset_label(ref, settings) or "")
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40].strip("-")
    return f"{what}-{slug}" if slug else what


def dataset_label(ref: str, settings=None) -> str | None:
    """How pages name dataset ``ref`` to a person, or None when no such dataset exists (any
    more): a bundled table's title with its name (the name is what links and the CLI take;
    left out when the title begins with it, :func:`_title_says_name`),
    an upload's own name (never its 32-character id), a notebook table's title.

    Cheap: reads the bundled manifest or the upload's record, never the table.
    """
    if not ref:
        return None
    if ref in _IN_MEMORY:
        return _IN_MEMORY[ref].title
    if is_upload_id(ref):
        if settings is None:
            return None
        store = open_store(settings)
        if not store.exists(ref):
            return None
        try:
            info = store.info(ref)
        except InvalidInputError:       # a damaged record: the dataset cannot be opened either
            return None
        name = info.get("name") if isinstance(info, dict) else getattr(info, "name", None)
        return name or f"upload {ref[:8]}"
    title = next((d.title for d in list_datasets() if d.name == ref), None)
    if title is None:
        return None
    return title if _title_says_name(title, ref) else f"{title} ({ref})"


def _title_says_name(title: str, name: str) -> bool:
    """Whether a bundled table's title begins with its name's words, so that adding the name
    would name the table twice ("Open LLM Leaderboard v2 (snapshot 2025-01-10)
    (open-llm-leaderboard-v2)", tester 18).

    >>> _title_says_name("Open LLM Leaderboard v2 (snapshot 2025-01-10)", "open-llm-leaderboard-v2")
    True
    >>> _title_says_name("AutoML Benchmark 2022 (4h, 8 cores)", "amlb-2022")
    False
    """
    words = [w for w in re.split(r"[^0-9a-z]+", title.lower()) if w]
    said = [w for w in re.split(r"[^0-9a-z]+", name.lower()) if w]
    return bool(said) and words[:len(said)] == said


def bundled_datasets() -> list:
    """The manifest entries of the bundled tables (name, title, roles, paired metrics), for
    pages that offer only the tables they can show."""
    return list_datasets()


def _upload_entry(info, *, mine: bool) -> CatalogEntry:
    """A catalogue line from an upload's public fields (a dict or a record object)."""
    get = info.get if isinstance(info, dict) else (lambda k, i=info: getattr(i, k, None))
    roles = get("roles")
    objectives = roles.get("objectives") if isinstance(roles, dict) else None
    return CatalogEntry(
        get("id"), get("name") or f"upload {get('id')[:8]}",
        "Uploaded from this browser." if mine else "Shared on this instance.", "uploaded",
        int(get("n_rows") or 0), n_objectives=len(objectives) if objectives else None,
        domain="your table" if mine else "shared table", source="upload",
        date=str(get("created") or "")[:10],
        learn=_upload_learn(mine=mine, shared=bool(get("shared"))),
        mine=mine)


def _upload_learn(*, mine: bool, shared: bool) -> str:
    """What the catalogue says of an upload: who sees it in the list (a shared upload of one's
    own is listed for everyone, not only for its owner)."""
    if mine and shared:
        return "Your own table, listed for everyone on this instance."
    if mine:
        return "Your own table: listed for you only (anyone you send its link to can open it)."
    return "A table its owner listed for everyone on this instance."


def catalog(settings=None, *, include_shared: bool = True, groups=()) -> list[CatalogEntry]:
    """The bundled datasets, then (when ``settings`` is given) the uploads marked shared,
    and those listed for one of ``groups`` (the signed-in user's, behind a login proxy).

    Bundled entries carry the manifest's counts (rows, objectives) and the catalogue texts
    of ``datasets/catalog.json`` (domain, date, short source, what you can learn).
    """
    texts = catalog_texts()
    entries = []
    for d in list_datasets():
        text = texts.get(d.name)
        entries.append(CatalogEntry(
            d.name, d.title, d.description, "bundled", d.n_rows,
            n_objectives=len(d.roles.objectives), domain=getattr(text, "domain", ""),
            source=getattr(text, "source", d.source), date=getattr(text, "date", ""),
            learn=getattr(text, "learn", "")))
    if settings is not None and include_shared:
        entries += [_upload_entry(info, mine=False)
                    for info in open_store(settings).list(shared_only=True, groups=groups)]
    return entries


def with_my_uploads(entries: list[CatalogEntry], mine: list) -> list[CatalogEntry]:
    """``entries`` with the browser's own uploads (public fields, e.g. from
    :func:`copa_dash.services.uploads.my_uploads`) first, marked as theirs; an own upload
    that is also shared is listed once, as theirs."""
    own = [_upload_entry(info, mine=True) for info in mine]
    refs = {e.ref for e in own}
    return own + [e for e in entries if e.ref not in refs]


def search_catalog(entries: list[CatalogEntry], query: str | None) -> list[CatalogEntry]:
    """The entries whose texts hold every word of ``query`` (case-insensitive; in any of
    name, title, domain, source, date, what you can learn, origin); all for an empty query.

    Examples
    --------
    >>> rows = [CatalogEntry("a", "DomainBed PACS", "", "bundled", 42, domain="vision"),
    ...         CatalogEntry("b", "MTEB", "", "bundled", 83, learn="embedding models")]
    >>> [e.ref for e in search_catalog(rows, "pacs")], [e.ref for e in search_catalog(rows, "")]
    (['a'], ['a', 'b'])
    """
    words = (query or "").lower().split()
    if not words:
        return list(entries)

    def text(e: CatalogEntry) -> str:
        return f"{e.ref} {e.title} {e.domain} {e.source} {e.date} {e.learn} {e.origin}".lower()

    return [e for e in entries if all(w in text(e) for w in words)]
