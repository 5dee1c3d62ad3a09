"""Calls a tabular deployment the way MLflow and Open Inference (KServe/Triton) users do.

Each body is built as those projects' documentation shows, with pandas and requests:
MLflow's ``dataframe_split`` from ``DataFrame.to_json(orient="split")``, ``dataframe_records``,
``instances`` (a list of records), ``inputs`` (columns of lists), a ``text/csv`` body from
``DataFrame.to_csv(index=False)``, and an Open Inference v2 inference request (one tensor per
column, ``shape``, ``datatype``, ``data``, with an ``id``); then MLflow's ``/ping`` and Open
Inference's ``/v2/health/ready``. Prints one JSON object: per call, its status and answer.

    python tests/protocol-clients/tabular_protocols_check.py --base http://127.0.0.1:3000/api/deployments/ID \\
        --key tyd_... --model species-api --rows '[{"island": "Biscoe", ...}]'
"""

import argparse
import json

import pandas as pd
import requests

TIMEOUT = 120


def answer(response):
    try:
        body = response.json()
    except ValueError:
        body = response.text
    return {"status": response.status_code, "content_type": response.headers.get("content-type"), "body": body}


def oip_datatype(dtype):
    """The Open Inference datatype of a pandas column (the protocol's tensor datatypes)."""
    if pd.api.types.is_bool_dtype(dtype):
        return "BOOL"
    if pd.api.types.is_integer_dtype(dtype):
        return "INT64"
    if pd.api.types.is_float_dtype(dtype):
        return "FP64"
    return "BYTES"


def main(args):
    df = pd.DataFrame(json.loads(args.rows))
    auth = {"Authorization": f"Bearer {args.key}"}
    json_headers = {**auth, "Content-Type": "application/json"}
    invocations = f"{args.base}/invocations"
    out = {}

    # MLflow's docs: the split orientation of pandas' to_json, wrapped in {"dataframe_split": ...}.
    split_body = '{"dataframe_split": ' + df.to_json(orient="split") + "}"
    out["dataframe_split"] = answer(requests.post(invocations, data=split_body, headers=json_headers, timeout=TIMEOUT))
    records = json.loads(df.to_json(orient="records"))
    out["dataframe_records"] = answer(requests.post(invocations, json={"dataframe_records": records}, headers=auth, timeout=TIMEOUT))
    out["instances"] = answer(requests.post(invocations, json={"instances": records}, headers=auth, timeout=TIMEOUT))
    columns = {name: json.loads(df[name].to_json(orient="records")) for name in df.columns}
    out["inputs"] = answer(requests.post(invocations, json={"inputs": columns}, headers=auth, timeout=TIMEOUT))
    csv_headers = {**auth, "Content-Type": "text/csv"}
    out["csv"] = answer(requests.post(invocations, data=df.to_csv(index=False).encode("utf-8"), headers=csv_headers, timeout=TIMEOUT))

    # Open Inference v2: one tensor per column, as the protocol's REST examples write a request.
    infer_request = {
        "id": "42",
        "inputs": [
            {"name": name, "shape": [len(df)], "datatype": oip_datatype(df[name].dtype), "data": columns[name]}
            for name in df.columns
        ],
    }
    infer_url = f"{args.base}/v2/models/{requests.utils.quote(args.model, safe='')}/infer"
    out["infer"] = answer(requests.post(infer_url, json=infer_request, headers=auth, timeout=TIMEOUT))

    out["ping"] = answer(requests.get(f"{args.base}/ping", headers=auth, timeout=TIMEOUT))
    out["ready"] = answer(requests.get(f"{args.base}/v2/health/ready", headers=auth, timeout=TIMEOUT))
    print(json.dumps(out))


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="The deployment's URL: <origin>/api/deployments/<id>")
    parser.add_argument("--key", required=True, help="A key of the deployment (Bearer)")
    parser.add_argument("--model", required=True, help="The deployment's name (Open Inference's model name)")
    parser.add_argument("--rows", required=True, help="The rows to send, a JSON list of objects")
    return parser.parse_args()


if __name__ == "__main__":
    main(parse_args())
