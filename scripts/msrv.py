#!/usr/bin/env python3
"""The declared minimum Rust version of every workspace crate, checked against its dependencies.

A crate's users build it with its normal and build dependencies (never its dev-dependencies), so its
`rust-version` must be at least the highest `rust-version` any crate of that closure declares (every
feature on, with the versions Cargo.lock holds). CI cannot
install older toolchains here (no toolchain may be downloaded), so this is the check it runs; the crates
are built and tested with the machine's stable toolchain.

Usage: python3 scripts/msrv.py        prints a line per crate; exit 1 if a declared version is too low
"""
import json
import subprocess
import sys


def version(text):
    return tuple(int(x) for x in text.split(".")[:3]) + (0,) * (3 - len(text.split(".")))


def main():
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--all-features"], check=True, capture_output=True, text=True
        ).stdout
    )
    packages = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    failed = False
    for member in sorted(meta["workspace_members"], key=lambda i: packages[i]["name"]):
        declared = packages[member].get("rust_version")
        seen, stack, worst = set(), [member], (None, (0, 0, 0))
        while stack:
            pid = stack.pop()
            for dep in nodes[pid]["deps"]:
                # What users build: normal and build dependencies (kind None or "build"), never dev ones.
                if {k["kind"] for k in dep["dep_kinds"]} <= {"dev"}:
                    continue
                if dep["pkg"] in seen:
                    continue
                seen.add(dep["pkg"])
                stack.append(dep["pkg"])
                rv = packages[dep["pkg"]].get("rust_version")
                if rv and version(rv) > worst[1]:
                    worst = (f'{packages[dep["pkg"]]["name"]} {rv}', version(rv))
        name = packages[member]["name"]
        need = ".".join(map(str, worst[1][:2]))
        if declared is None or version(declared) < worst[1]:
            failed = True
            print(f"{name}: rust-version {declared} is below {need}, which {worst[0]} needs")
        else:
            print(f"{name}: rust-version {declared} (dependencies need {need}: {worst[0] or 'none'})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
