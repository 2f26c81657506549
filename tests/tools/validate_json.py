#!/usr/bin/env python3
"""Validates every JSON golden output against its published JSON Schema.

Usage: validate_json.py SOURCE_DIR [CASES_DIR]

Walks CASES_DIR (default SOURCE_DIR/tests/golden/cases): every case whose `stdout` is JSON
(starts with `{`) must parse, carry `schema_version` as its first key, and validate against the
schema in SOURCE_DIR/docs/schema/ chosen from the case's command by SCHEMA_FOR_COMMAND below.
A JSON output whose command has no schema is an error, as is finding no JSON output at all.
The validator is python3-jsonschema (Debian 12: 4.10, draft 2020-12); without it this script
fails rather than skips. Exit status: 0 all valid, 1 otherwise.
"""

import json
import pathlib
import sys
import warnings

# Command words (the first one or two positional arguments) -> schema file in docs/schema/.
SCHEMA_FOR_COMMAND = {
    ("catalog", "list"): "catalog-list.schema.json",
    ("catalog", "diff"): "catalog-diff.schema.json",
    ("recommend",): "recommend.schema.json",
    ("estimate",): "estimate.schema.json",
    ("tco",): "tco.schema.json",
    ("check",): "check.schema.json",
    ("presets",): "presets.schema.json",
    ("fleet",): "fleet.schema.json",
    ("rules", "show"): "rules-show.schema.json",
    ("rules", "explain"): "rules-explain.schema.json",
    ("validate",): "validate.schema.json",
    ("calibrate",): "calibrate.schema.json",
}

# Options that may precede the command and take a value (the value is not the command).
GLOBAL_OPTIONS_WITH_VALUE = {"--catalog", "--format", "-o", "--output", "--currency", "--rules"}


def command_words(args):
    """The positional words of `args` (options and their values skipped), first three."""
    words = []
    skip_value = False
    for arg in args:
        if skip_value:
            skip_value = False
            continue
        if arg.startswith("-"):
            skip_value = arg in GLOBAL_OPTIONS_WITH_VALUE
            continue
        words.append(arg)
        if len(words) == 3:
            break
    return tuple(words)


def schema_for(args):
    words = command_words(args)
    for length in (2, 1):
        name = SCHEMA_FOR_COMMAND.get(words[:length])
        if name:
            return name
    return None


def load_schemas(schema_dir):
    schemas = {}
    for path in sorted(schema_dir.glob("*.schema.json")):
        schemas[path.name] = json.loads(path.read_text(encoding="utf-8"))
    return schemas


def make_validator(jsonschema, schemas, name):
    schema = schemas[name]
    cls = jsonschema.Draft202012Validator
    try:
        import referencing  # jsonschema >= 4.18
        from referencing.jsonschema import DRAFT202012

        registry = referencing.Registry().with_resources(
            (s["$id"], DRAFT202012.create_resource(s)) for s in schemas.values()
        )
        return cls(schema, registry=registry)
    except ImportError:  # jsonschema 4.10 on Debian 12
        store = {s["$id"]: s for s in schemas.values()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        return cls(schema, resolver=resolver)


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import jsonschema
    except ImportError:
        print("validate_json: error: python3-jsonschema is not installed "
              "(apt-get install python3-jsonschema)", file=sys.stderr)
        return 1
    source = pathlib.Path(argv[1])
    cases_dir = pathlib.Path(argv[2]) if len(argv) == 3 else source / "tests/golden/cases"
    schemas = load_schemas(source / "docs/schema")
    problems = []
    for name, schema in schemas.items():
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.SchemaError as e:
            problems.append(f"docs/schema/{name}: invalid schema: {e.message}")
        if "$id" not in schema:
            problems.append(f"docs/schema/{name}: no $id")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1

    validated = 0
    for case in sorted(p for p in cases_dir.iterdir() if p.is_dir()):
        stdout = (case / "stdout").read_text(encoding="utf-8") if (case / "stdout").exists() else ""
        if not stdout.lstrip().startswith("{"):
            continue
        args = [a for a in (case / "args").read_text(encoding="utf-8").splitlines() if a]
        where = f"{case.name}/stdout"
        try:
            pairs = json.loads(stdout, object_pairs_hook=lambda kv: kv)
            document = json.loads(stdout)
        except json.JSONDecodeError as e:
            problems.append(f"{where}:{e.lineno}:{e.colno}: not JSON: {e.msg}")
            continue
        if not pairs or pairs[0][0] != "schema_version":
            problems.append(f"{where}: the first key is not schema_version")
        schema_name = schema_for(args)
        if schema_name is None:
            problems.append(f"{where}: no schema for command {' '.join(command_words(args))!r}; "
                            "add it to SCHEMA_FOR_COMMAND")
            continue
        if schema_name not in schemas:
            problems.append(f"{where}: docs/schema/{schema_name} does not exist")
            continue
        validator = make_validator(jsonschema, schemas, schema_name)
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        for error in errors:
            pointer = "/" + "/".join(str(p) for p in error.absolute_path)
            problems.append(f"{where}: {pointer}: {error.message} ({schema_name})")
        validated += 1
    if validated == 0 and not problems:
        problems.append(f"{cases_dir}: no JSON golden output found")
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"validate_json: {validated} JSON outputs valid")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
