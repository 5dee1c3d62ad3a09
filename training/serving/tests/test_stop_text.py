"""Stop sequences over streamed text: what is handed out ends before the first stop string,
whichever delta boundaries it is split over, and a tail that only looked like the start of
one is handed out at the end; the sampling fields are checked field by field."""

import pytest

from serving.sampling import MAX_SAFE_SEED, Sampling, check_sampling_fields
from serving.stop_text import StopText

TEXT = "The answer is 5.\nQuestion: what else?"


def run(stops, pieces):
    stop = StopText(stops)
    out = [stop.push(p) for p in pieces]
    out.append(stop.finish())
    return stop, out


@pytest.mark.parametrize("size", [1, 2, 3, 7, len(TEXT)])
def test_the_text_ends_before_the_stop_string_however_the_deltas_split_it(size):
    pieces = [TEXT[i:i + size] for i in range(0, len(TEXT), size)]
    stop, out = run(["\nQuestion:"], pieces)
    assert "".join(out) == stop.text() == "The answer is 5."
    assert stop.stopped
    assert all("\n" not in piece for piece in out)  # the stop string's start was held back, never handed out


def test_the_earliest_of_several_stop_strings_wins():
    stop, _ = run(["else", "is"], [TEXT])
    assert stop.text() == "The answer "


def test_a_tail_that_only_began_like_a_stop_string_is_handed_out_at_the_end():
    stop, out = run(["5!"], ["The answer is 5"])
    assert out == ["The answer is ", "5"] and not stop.stopped
    assert stop.text() == "The answer is 5"


def test_nothing_is_handed_out_after_a_stop():
    stop, out = run(["."], ["a.b", "cd"])
    assert out == ["a", "", ""] and stop.text() == "a"


def test_without_stop_strings_every_delta_passes_at_once():
    _, out = run([], ["ab", "c"])
    assert out == ["ab", "c", ""]


def test_sampling_fields_are_checked_one_problem_per_field():
    bad = {"temperature": 2.5, "topP": -0.1, "seed": MAX_SAFE_SEED + 1, "stop": ["ok", ""]}
    assert [f["path"] for f in check_sampling_fields(bad)] == ["temperature", "topP", "seed", "stop"]
    assert check_sampling_fields({"temperature": True})[0]["path"] == "temperature"
    assert check_sampling_fields({"stop": ["a", "b", "c", "d", "e"]})[0]["path"] == "stop"
    good = {"temperature": 0.7, "topP": 0.9, "seed": -3, "stop": ["\n"]}
    assert check_sampling_fields(good) == []
    assert Sampling.of_request(good) == Sampling(temperature=0.7, top_p=0.9, seed=-3, stop=("\n",))
    assert Sampling.of_request({"temperature": 0}).greedy and Sampling.of_request({}).greedy
