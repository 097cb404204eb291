"""Two gunicorn instances, one Redis, one Celery worker, one dataset store (real processes):
an upload on one is analysed on the other, a result computed on one is a cache hit on the
other, a job started on one is followed from the other; with Redis stopped the app computes
in-process, and goes back to Celery when it returns. (A worker killed mid-job: see
test_background_pages.py.)

The callbacks are sent over HTTP exactly as the page's renderer sends them (cluster.DashClient);
the browser tests of the same jobs are in test_background_pages.py.
"""

from __future__ import annotations

import io
import json
import re

import pytest
import requests

from copa_dash.data.bundled import load_bundled
from copa_dash.data.schema import EvalTable
from copa_dash.services import systems
from copa_dash.services.job_health import worker_is_alive

from .cluster import DashClient, is_celery_job, raw_job

pytestmark = pytest.mark.scaleout

SIDES = {"baseline": ["SVM"], "candidate": ["Feldman-SVM"]}
OBJECTIVES = ["accuracy", "di_distance"]
#: The followed job's size (test_a_job_started_on_one_instance_is_followed_from_the_other).
PERMUTATIONS = 200_000


def significance_payload(client: DashClient, ref: str, permutations: int) -> dict:
    values = {"systems-run.n_clicks": 1, "systems-ref.data": ref,
              "systems-objectives.value": OBJECTIVES,
              "systems-baseline.value": SIDES["baseline"],
              "systems-candidate.value": SIDES["candidate"],
              "systems-permutations.value": permutations, "systems-seed.value": 0,
              "systems-ref-rule.value": "range"}
    return client.payload("systems-result.children", values, triggered="systems-run.n_clicks")


def expected_p(table: EvalTable, permutations: int, seed: int = 0) -> str:
    """The p-value as the page prints it, computed here in the test process (no cache)."""
    view = systems.significance_test(table, baseline=SIDES["baseline"],
                                     candidate=SIDES["candidate"], objectives=OBJECTIVES,
                                     n_permutations=permutations, rng_seed=seed,
                                     ref_rule="range")
    return f"p = {view.test.p_value:.4g}"


def fairness_table() -> EvalTable:
    return load_bundled("fairness-adult-sex")[0]


def run_test(start: DashClient, ref: str, permutations: int, *, follow_on: str | None = None,
             timeout: float = 90):
    payload = significance_payload(start, ref, permutations)
    handles = start.submit(payload)
    progress = []
    answer = start.poll(payload, handles, base_url=follow_on, timeout=timeout,
                        on_progress=progress.append)
    return handles, answer, progress


def test_a_job_started_on_one_instance_is_followed_from_the_other(cluster):
    # 300 runs a side (tests/heavy_tables.py): the job lasts long enough for progress to
    # reach b (the bundled table's 10 runs a side finish before a first progress poll)
    cluster.worker.ensure_running()
    ref, table = upload_many_runs(cluster.a.url)
    a = DashClient(cluster.a.url)
    a.open_page(f"/systems?dataset={ref}")
    # b has served the page before the job starts (as a browser on b would have): its first
    # answer then comes at once, not after its own start-up, which once let a fast worker
    # finish before a first progress poll reached b
    DashClient(cluster.b.url).open_page(f"/systems?dataset={ref}")
    # 200,000 permutations of it: 3-8 s of work, one progress update per 2,000 against a
    # poll of b every 0.3 s (1,000,000 took minutes once the test recomputed them at load 8)
    handles, answer, progress = run_test(a, ref, PERMUTATIONS, follow_on=cluster.b.url,
                                         timeout=240)
    assert is_celery_job(handles), raw_job(handles)       # the worker ran it, not instance a
    assert progress, "no progress reached instance b"
    percents = [int(p["systems-progress.value"]) for p in progress]
    assert percents == sorted(percents) and 0 <= percents[0] <= percents[-1] <= 100
    text = json.dumps(answer["response"])
    assert expected_p(table, PERMUTATIONS) in text


def upload_many_runs(url: str) -> tuple[str, EvalTable]:
    """A two-system table with many runs a side, uploaded to ``url``; its id and table."""
    from copa_dash.data.io import build_eval_table
    from copa_dash.data.schema import Objective, Roles
    from tests.heavy_tables import two_systems_many_runs

    frame = two_systems_many_runs()
    roles = {"id": "id", "system": "algorithm", "seed": "run",
             "objectives": [{"name": "accuracy", "direction": "max"},
                            {"name": "di_distance", "direction": "min"}]}
    response = requests.post(url + "/api/datasets", headers={"Origin": url},
                             files={"file": ("many-runs.csv",
                                             io.BytesIO(frame.to_csv(index=False).encode()),
                                             "text/csv")},
                             data={"roles": json.dumps(roles), "name": "many runs"},
                             timeout=60)
    assert response.status_code == 201, response.text
    table = build_eval_table(frame, Roles(
        id="id", system="algorithm", seed="run",
        objectives=(Objective("accuracy", "max"), Objective("di_distance", "min"))))
    return response.json()["id"], table


def upload_copy_of_fairness(url: str) -> str:
    frame = fairness_table().frame
    frame = frame[frame["algorithm"].isin(SIDES["baseline"] + SIDES["candidate"])]
    roles = {"id": "id", "system": "algorithm", "seed": "run",
             "objectives": [{"name": "accuracy", "direction": "max"},
                            {"name": "di_distance", "direction": "min"}]}
    buffer = io.BytesIO(frame[["id", "algorithm", "run", *OBJECTIVES]].to_csv(index=False)
                        .encode())
    response = requests.post(url + "/api/datasets", headers={"Origin": url},
                             files={"file": ("two-systems.csv", buffer, "text/csv")},
                             data={"roles": json.dumps(roles), "name": "two systems"},
                             timeout=60)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def test_an_upload_on_one_instance_is_analysed_on_the_other(cluster):
    cluster.worker.ensure_running()
    dataset_id = upload_copy_of_fairness(cluster.a.url)
    b = DashClient(cluster.b.url)
    b.open_page(f"/systems?dataset={dataset_id}")
    handles, answer, _ = run_test(b, dataset_id, 2_000)
    assert is_celery_job(handles)
    table = fairness_table()
    two = EvalTable(table.frame[table.frame["algorithm"].isin(
        SIDES["baseline"] + SIDES["candidate"])].reset_index(drop=True), table.roles)
    assert expected_p(two, 2_000) in json.dumps(answer["response"])


def indicators_payload(client: DashClient, ref: str) -> dict:
    values = {"systems-ref.data": ref, "systems-objectives.value": OBJECTIVES,
              "systems-normalize.value": "minmax", "systems-sigma.value": 0.1,
              "systems-shown.value": []}
    return client.payload("systems-table.data", values, triggered="systems-objectives.value")


def analysis_keys(redis) -> set:
    return set(redis.client().scan_iter(match="copa:analysis:*", count=1000))


def test_a_result_computed_on_one_instance_is_a_cache_hit_on_the_other(cluster):
    ref = "fairness-compas-race"   # not opened by the other tests of this session
    a, b = DashClient(cluster.a.url), DashClient(cluster.b.url)
    a.open_page(f"/systems?dataset={ref}")
    b.open_page(f"/systems?dataset={ref}")
    before = analysis_keys(cluster.redis)
    first = a.post(indicators_payload(a, ref))
    assert first.status_code == 200, first.text
    computed = analysis_keys(cluster.redis) - before
    assert computed, "instance a stored nothing in Redis"
    hits = cluster.redis.client().info("stats")["keyspace_hits"]
    second = b.post(indicators_payload(b, ref))
    assert second.status_code == 200, second.text
    assert analysis_keys(cluster.redis) - before == computed   # b added nothing: it read a's
    assert cluster.redis.client().info("stats")["keyspace_hits"] > hits
    assert first.json()["response"] == second.json()["response"]


def test_without_redis_the_app_computes_in_process_and_recovers(cluster):
    cluster.worker.ensure_running()
    a = DashClient(cluster.a.url)
    a.open_page("/systems?dataset=fairness-adult-sex")
    cluster.redis.stop()
    try:
        handles, answer, _ = run_test(a, "fairness-adult-sex", 3_000)
        assert re.fullmatch(r"[0-9]+", raw_job(handles))       # a process of instance a
        assert expected_p(fairness_table(), 3_000) in json.dumps(answer["response"])
        plain = a.post(indicators_payload(a, "fairness-adult-sex"))
        assert plain.status_code == 200, plain.text
    finally:
        cluster.redis.start()
    cluster.worker.process.wait_until(
        lambda: worker_is_alive(cluster.redis.client(), cluster.worker.name), timeout=60,
        what="a heartbeat after Redis came back")
    handles, answer, _ = run_test(a, "fairness-adult-sex", 4_000)
    assert is_celery_job(handles)
    assert expected_p(fairness_table(), 4_000) in json.dumps(answer["response"])
