"""One class_key: the tabular recipe, the evaluator and the export's predict.py (which runs
without Trainyard, so it ships a pasted copy) name every class label the same way."""

from __future__ import annotations

import importlib.util
import inspect

import numpy as np
import pytest
from trainyard_recipe import class_key

from evaluation import tables as evaluation_tables
from recipes.export.package import predict_py
from recipes.tabular import data_prep, predict, train

# value -> its key. Each pair is a case where two writers of one class could disagree.
TRICKY = [
    (1, "1"), (1.0, "1"), ("1", "1"), (np.int64(1), "1"), (np.float64(1.0), "1"), (np.float32(1.0), "1"),
    (np.uint8(1), "1"), (-0.0, "0"), (0.5, "0.5"), (np.float32(0.5), "0.5"), (1e20, "100000000000000000000"),
    (True, "True"), (False, "False"), (np.bool_(True), "True"), ("True", "True"), ("01", "01"),
    (None, "None"), (float("nan"), "nan"), (np.float64("nan"), "nan"), (float("inf"), "inf"),
    (" Adelie ", " Adelie "), ("Chinstrap penguin", "Chinstrap penguin"), (np.str_("Gentoo"), "Gentoo"), ("", ""),
]


@pytest.fixture(scope="module")
def shipped_class_key(tmp_path_factory):
    """class_key as the export's predict.py defines it, loaded from the generated file."""
    path = tmp_path_factory.mktemp("export") / "predict.py"
    path.write_bytes(predict_py())
    spec = importlib.util.spec_from_file_location("shipped_predict", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines functions only: main() runs under __main__
    return module.class_key


@pytest.mark.parametrize("value, key", TRICKY, ids=[repr(v) for v, _ in TRICKY])
def test_the_recipe_the_evaluator_and_the_export_give_one_key(value, key, shipped_class_key):
    assert class_key(value) == key
    assert evaluation_tables.class_key(value) == key
    assert shipped_class_key(value) == key


def test_the_recipe_modules_name_classes_through_the_shared_function():
    for module in (data_prep, predict, train, evaluation_tables):
        assert module.class_key is class_key, module.__name__


def test_the_shipped_predict_py_holds_the_shared_source_verbatim():
    text = predict_py().decode("utf-8")
    assert inspect.getsource(class_key) in text
    assert text.count("def class_key(") == 1
