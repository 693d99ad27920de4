"""The validation bench's report: rates, ratios and agreement rows from given figures; the corpus."""

from __future__ import annotations

from bench.validation import CATEGORIES, Agreement, Caught, ValidationRun, corpus, notes, table


def _run(kgen_dict: float = 0.1, peer_dict: float = 4.0) -> ValidationRun:
    caught = {"valid": Caught(300, 0, 0), "wrong type": Caught(25, 25, 25), "bad enum": Caught(25, 25, 0),
              "missing required": Caught(25, 25, 25), "unknown field": Caught(25, 0, 0)}
    return ValidationRun(objects=400, kgen_dict=kgen_dict, peer_dict=peer_dict, model_objects=375, kgen_model=0.125,
                         peer_model=3.75, peer_cached_dict=0.25, peer_cached_same=400, repeats=5, peer_repeats=3,
                         warn=Agreement(both_accept=325, both_reject=50, kgen_only=25, peer_only=0),
                         strict=Agreement(both_accept=300, both_reject=75, kgen_only=25, peer_only=0),
                         caught=caught, mutations={"bad enum": [('spec.type: "Internal"', 25)]},
                         peer_version="1.37.0", peer_schema="1.37", seed=7)


def test_rates_are_objects_per_second_and_the_ratio_is_kgen_over_the_peer() -> None:
    rows = {row.metric: row for row in table(_run()).rows}
    dicts = rows["validate(dict), objects/s (400 objects)"]
    assert dicts.values == ("4,000/s", "100/s") and dicts.ratio == "40.0×" and dicts.met is None
    models = rows["validate(model instance), objects/s (375 that decode into models)"]
    assert models.values == ("3,000/s", "100/s") and models.ratio == "30.0×"
    cached = rows["validate(dict), peer's schemas and validator built once per kind (not its API)"]
    assert cached.values == ("4,000/s", "1,600/s") and cached.ratio == "2.50×"


def test_a_slower_kgen_shows_a_ratio_below_one_and_no_goal_is_claimed() -> None:
    rendered = table(_run(kgen_dict=0.5, peer_dict=0.25))
    assert rendered.rows[0].ratio == "0.50×"
    assert all(row.met is None for row in rendered.rows)


def test_agreement_and_caught_rows() -> None:
    rows = {row.metric: row for row in table(_run()).rows}
    warn = rows["verdicts agree: kgen Warn vs peer default"]
    assert warn.values == ("375/400 (50 both reject, 325 both accept)", "25 only kgen rejects, 0 only peer")
    assert rows["valid objects accepted (Warn / default)"].values == ("300/300", "300/300")
    assert rows["bad enum objects rejected (Warn / default)"].values == ("25/25", "0/25")


def test_notes_name_the_versions_and_say_when_the_peer_missed_every_enum() -> None:
    text = "\n".join(notes(_run()))
    assert "kubernetes-validate 1.37.0, asked for Kubernetes 1.37.2" in text and "1.37 JSON schemas" in text
    assert "passed every bad enum value" in text and 'spec.type: "Internal" ×25' in text
    assert "400/400 objects" in text


def test_the_corpus_is_seeded_and_plants_every_category() -> None:
    first, again = corpus(200, 3), corpus(200, 3)
    assert [c.obj for c in first] == [c.obj for c in again]
    assert {c.category for c in first} == set(CATEGORIES)
    assert {c.obj["kind"] for c in first} == {"Deployment", "Pod", "Service", "ConfigMap"}
    planted = sum(1 for c in first if c.category != "valid")
    assert 20 <= planted <= 80 and all(c.mutation for c in first if c.category != "valid")
