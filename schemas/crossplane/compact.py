#!/usr/bin/env python3
"""Writes the compact form of Crossplane's CRDs that fnhcl bundles.

Usage: compact.py CROSSPLANE_GIT_DIR TAG

For each CRD in `cluster/crds/` at TAG: the fields validation reads (group, names, scope,
each version's name and openAPIV3Schema), descriptions of schema nodes left out (they never
change a verdict and are most of the bytes), as one-line JSON named after the CRD.
"""
import json
import subprocess
import sys

import yaml  # PyYAML

SCHEMA_MAPS = ("properties", "patternProperties", "definitions")
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf")
SCHEMA_ONES = ("items", "additionalProperties", "not")


def strip(node):
    """A schema node without its descriptions; field names are kept as they are."""
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "description":
            continue
        if key in SCHEMA_MAPS and isinstance(value, dict):
            value = {name: strip(v) for name, v in value.items()}
        elif key in SCHEMA_LISTS and isinstance(value, list):
            value = [strip(v) for v in value]
        elif key in SCHEMA_ONES:
            value = strip(value)
        out[key] = value
    return out


def main():
    repo, tag = sys.argv[1], sys.argv[2]
    git = ["git", "-C", repo]
    names = subprocess.check_output(git + ["ls-tree", "--name-only", tag, "cluster/crds/"], text=True).split()
    for path in names:
        crd = yaml.safe_load(subprocess.check_output(git + ["show", f"{tag}:{path}"], text=True))
        spec = crd["spec"]
        versions = [
            {"name": v["name"], "served": v.get("served", True),
             "schema": {"openAPIV3Schema": strip(v["schema"]["openAPIV3Schema"])}}
            for v in spec["versions"]
        ]
        compact = {
            "apiVersion": crd["apiVersion"],
            "kind": crd["kind"],
            "metadata": {"name": crd["metadata"]["name"]},
            "spec": {"group": spec["group"], "names": {"kind": spec["names"]["kind"]},
                     "scope": spec["scope"], "versions": versions},
        }
        out = path.rsplit("/", 1)[1].removesuffix(".yaml") + ".json"
        with open(out, "w") as f:
            json.dump(compact, f, separators=(",", ":"), sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
