#!/usr/bin/env python3
"""Launch files of `recommend --emit` against the schemas SkyPilot and dstack publish.

Usage: check_launch.py GPUPLAN SOURCE_DIR

For each case, runs `gpuplan recommend ... --emit KIND FILE` and the same command with
`--format json`, then checks that the file
  - parses as YAML and validates against the fetched schema (tests/fixtures/launch/, SOURCE.md
    names their versions): SkyPilot's task schema, with `resources` against its resources schema;
    dstack's configuration schema (task or fleet);
  - names the chosen row's instance type, region, GPU count per node, node count and spot choice,
    as the JSON output ranks them.
The validators must also reject a broken copy of each file (so a test that cannot fail is caught),
and a provider a tool has no cloud for must be refused with exit 2. The price cache and config are
kept out (own XDG folders, --offline). Exit status 0 when every check holds.
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile

try:
    import jsonschema
    import yaml
except ImportError as error:  # fail, never skip
    print(f"check_launch.py: {error}: install python3-jsonschema and python3-yaml")
    sys.exit(1)

GPUPLAN, SOURCE = sys.argv[1], pathlib.Path(sys.argv[2])
FIXTURES = SOURCE / "tests/fixtures/launch"

# (workload arguments, --option or None, launchers)
CASES = [
    (["examples/llama-7b-lora-finetune.yaml"], None, ["skypilot", "dstack", "dstack-fleet"]),
    (["--preset", "llama-70b-inference"], "4", ["skypilot", "dstack"]),
    (["--preset", "llama2-7b-pretrain", "--provider", "aws"], None, ["skypilot", "dstack", "dstack-fleet"]),
    (["--preset", "llama-7b-lora", "--provider", "gcp", "--gpu", "H100"], None, ["skypilot", "dstack"]),
    (["--preset", "llama-7b-lora", "--provider", "runpod"], "2", ["skypilot", "dstack"]),
]

failures = []


def fail(message):
    failures.append(message)
    print("FAIL:", message)


def load(name):
    with open(FIXTURES / name, encoding="utf-8") as handle:
        return json.load(handle)


def validator(schema):
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


SKY_TASK = validator(load("skypilot-task.schema.json"))
SKY_RESOURCES = validator(load("skypilot-resources.schema.json"))
DSTACK = validator(load("dstack-configuration.schema.json"))


def schema_errors(kind, doc):
    """Every schema error of a launch file, as text."""
    if kind == "skypilot":
        errors = [e.message for e in SKY_TASK.iter_errors(doc)]
        if isinstance(doc, dict) and isinstance(doc.get("resources"), dict):
            errors += [e.message for e in SKY_RESOURCES.iter_errors(doc["resources"])]
        return errors
    return [e.message for e in DSTACK.iter_errors(doc)]


def run(args, env):
    return subprocess.run([GPUPLAN, *args], cwd=SOURCE, env=env, capture_output=True, text=True)


def check_fields(kind, doc, option, where):
    """The file asks for the row's instance, place, GPUs, nodes and spot choice."""
    spot = option["purchase"] == "spot"
    per_node = option["gpus_per_node"]
    if kind == "skypilot":
        res = doc["resources"]
        expect = {
            "instance_type": res.get("instance_type") == option["instance"],
            "infra region": res.get("infra", "").split("/")[1:2] in ([option["region"]], []),
            "accelerators count": str(res.get("accelerators", "")).endswith(f":{per_node}"),
            "use_spot": res.get("use_spot") is spot,
            "num_nodes": doc.get("num_nodes") == option["nodes"],
        }
    else:
        res = doc["resources"]
        expect = {
            "type": doc.get("type") == ("fleet" if kind == "dstack-fleet" else "task"),
            "instance_types": doc.get("instance_types") == [option["instance"]],
            "regions": doc.get("regions") in ([option["region"]], None),
            "gpu count": str(res.get("gpu", "")).endswith(f":{per_node}"),
            "spot_policy": doc.get("spot_policy") == ("spot" if spot else "on-demand"),
            "nodes": doc.get("nodes") == option["nodes"],
        }
        if kind == "dstack":
            expect["commands"] = bool(doc.get("commands"))
        else:
            expect["placement"] = doc.get("placement") == ("cluster" if option["nodes"] > 1 else "any")
    for what, ok in expect.items():
        if not ok:
            fail(f"{where}: {what} does not match row {option['id']}")


def broken(kind, doc):
    """A copy the schema must reject: a wrong type in a key each tool checks."""
    bad = json.loads(json.dumps(doc))
    if kind == "skypilot":
        bad["resources"]["use_spot"] = "sometimes"
    else:
        bad["spot_policy"] = "sometimes"
    return bad


def main():
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_CACHE_HOME=f"{tmp}/cache", XDG_CONFIG_HOME=f"{tmp}/config",
                   COLUMNS="80")
        checked = 0
        for number, (workload, choice, kinds) in enumerate(CASES):
            option_args = ["--option", choice] if choice else []
            emit_args = []
            for kind in kinds:
                emit_args += ["--emit", kind, f"{tmp}/case{number}-{kind}.yaml"]
            base = ["--offline", "recommend", *workload]
            result = run([*base, *option_args, *emit_args], env)
            if result.returncode != 0:
                fail(f"case {number} {workload}: exit {result.returncode}: {result.stderr.strip()}")
                continue
            plan = json.loads(run([*base, "--format", "json", "--top", "0"], env).stdout)
            row = int(choice) if choice else 1
            option = plan["options"][row - 1]
            for kind in kinds:
                path = f"{tmp}/case{number}-{kind}.yaml"
                where = f"case {number} {' '.join(workload)} {kind}"
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
                doc = yaml.safe_load(text)
                for error in schema_errors(kind, doc):
                    fail(f"{where}: schema: {error}")
                if not schema_errors(kind, broken(kind, doc)):
                    fail(f"{where}: the schema accepts a broken copy")
                check_fields(kind, doc, option, where)
                if "PLACEHOLDER" not in text and kind != "dstack-fleet":
                    fail(f"{where}: the job's commands are not marked as a PLACEHOLDER")
                checked += 1
        # A provider neither tool has a cloud for is refused, naming it, exit 2.
        refused = run(["--offline", "recommend", "--preset", "llama-7b-lora", "--provider",
                       "hyperstack", "--emit", "skypilot", f"{tmp}/refused.yaml"], env)
        if refused.returncode != 2 or "no cloud for provider 'hyperstack'" not in refused.stderr:
            fail(f"hyperstack: expected exit 2 naming the provider, got {refused.returncode}: "
                 f"{refused.stderr.strip()}")
        if os.path.exists(f"{tmp}/refused.yaml"):
            fail("a refused --emit wrote its file")
        print(f"{checked} launch files checked")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
