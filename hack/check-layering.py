#!/usr/bin/env python3
"""Fails when a project #include crosses the layers of DESIGN.md section 2.

Layers, left to right: apis <- federation <- sync, status <- controllers <- cmd. A file may
include its own layer and the layers to its left, never one to its right; sync and status never
include each other. tests/ and bench/ may include anything. Within a layer, the folders one level
down (federation/client, federation/runtime, ...) must not include each other in a cycle.

Inside federation/ the folders are ordered too (FEDERATION_ORDER: runtime <- metrics <- workqueue,
client <- informer, ... <- controller): a folder includes only folders of earlier tiers. Inside
sync/, the pure plan (sync/plan) includes nothing but apis/ and itself: deciding what to write
never does I/O,
and sync/io (the dispatcher, executors, version bookkeeping) includes nothing of sync/controller.

Includes are read as paths from the repository root; a relative one ("../../sync/x.h", "x.h") is
first resolved against the including file's folder, so that it cannot hide a crossing.

Third-party edges: Boost.Beast only in federation/client and federation/serving.

Usage: hack/check-layering.py [ROOT]      (default: the repository holding this script)
Prints one line per violation (file:line: what is wrong and what to do) and exits 1 if any.
"""

import os
import re
import sys

# Which top-level folders each layer may include (its own included).
ALLOWED = {
    "apis": {"apis"},
    "federation": {"apis", "federation"},
    "sync": {"apis", "federation", "sync"},
    "status": {"apis", "federation", "status"},
    "controllers": {"apis", "federation", "sync", "status", "controllers"},
    "cmd": {"apis", "federation", "sync", "status", "controllers", "cmd"},
}
# Folders that may include anything of the project.
UNCHECKED = {"tests", "bench"}
# Headers of a third-party library, and the only folders that may include them.
THIRD_PARTY = [
    (re.compile(r"^boost/beast"), ("federation/client/", "federation/serving/"), "Boost.Beast"),
]
# Folders one level down whose mutual includes must not form a cycle.
CYCLE_CHECKED = {"apis", "federation", "sync", "status", "controllers", "cmd"}
# The tiers of federation/, left to right: a folder may include its own folder and the folders of
# earlier tiers, never one of its own tier or a later one. A new folder must be placed here.
FEDERATION_ORDER = [
    ["runtime"],
    ["metrics"],
    ["workqueue", "client"],
    ["informer", "events", "serving", "crdgen", "scheduling"],
    ["election", "cluster", "admission"],
    ["controller"],
]
FEDERATION_TIER = {folder: tier for tier, folders in enumerate(FEDERATION_ORDER) for folder in folders}
# Folders that may include only the listed folders (their own included), and why.
RESTRICTED = {
    "sync/plan": ({"apis", "sync/plan"},
                  "the sync plan decides what to write and never does I/O: pass what it needs in "
                  "as values, from sync/io or sync/controller"),
    "sync/io": ({"apis", "federation", "sync/plan", "sync/io"},
                "member and host I/O serves the controller's reconciles and never calls back into "
                "them: pass a callback or a value in"),
}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SOURCE_SUFFIXES = (".h", ".cc", ".hpp", ".cpp")
SKIPPED_DIRS = {"build", ".git", "charts", "hack"}


def source_files(root):
    for top in sorted(os.listdir(root)):
        if top in SKIPPED_DIRS or top.startswith(".") or not os.path.isdir(os.path.join(root, top)):
            continue
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.relpath(os.path.join(folder, name), root)


def includes(root, path):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            match = INCLUDE.match(line)
            if match:
                yield number, match.group(1) == "<", match.group(2)


def top_folder(path):
    return path.split("/", 1)[0]


def subfolder(path):
    """'federation/client' for 'federation/client/x.h'; None for a file right under a layer."""
    parts = path.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else None


def is_project_header(root, include):
    return os.path.exists(os.path.join(root, include)) or top_folder(include) in ALLOWED


def resolved(root, path, include):
    """The include as a path from the root: a relative one that names a file next to the
    including file, or climbs out of its folder, is resolved against that folder."""
    if include.startswith("."):
        return os.path.normpath(os.path.join(os.path.dirname(path), include))
    beside = os.path.normpath(os.path.join(os.path.dirname(path), include))
    if not os.path.exists(os.path.join(root, include)) and os.path.exists(os.path.join(root, beside)):
        return beside
    return include


def restriction_problem(path, include):
    """Why `path` may not include `include` under RESTRICTED, or None."""
    for folder, (allowed, why) in RESTRICTED.items():
        if path.startswith(folder + "/"):
            if not any(include == a or include.startswith(a + "/") for a in allowed):
                return f"'{folder}/' may include only {', '.join(sorted(allowed))}: {why}"
    return None


def federation_order_problem(source_folder, target_folder):
    """Why a federation/ folder may not include another, or None."""
    source, target = source_folder.split("/")[1], target_folder.split("/")[1]
    for folder in (source, target):
        if folder not in FEDERATION_TIER:
            return (f"'federation/{folder}/' has no place in FEDERATION_ORDER: add it to "
                    "hack/check-layering.py, right of every folder it includes")
    if FEDERATION_TIER[target] >= FEDERATION_TIER[source]:
        tiers = " <- ".join(", ".join(t) for t in FEDERATION_ORDER)
        return (f"'federation/{source}/' may include only folders left of it ({tiers}); "
                f"'federation/{target}/' is not")
    return None


def find_cycle(edges):
    """One cycle in the folder graph as a list of folders, or None."""
    state = {}
    stack = []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def check(root):
    problems = []
    edges = {}  # folder -> folders it includes
    edge_example = {}  # (from, to) -> "file:line"
    for path in source_files(root):
        layer = top_folder(path)
        if layer in UNCHECKED:
            continue
        if layer not in ALLOWED:
            problems.append(
                f"{path}: the folder '{layer}/' is not a layer of DESIGN.md section 2: move the "
                f"file into one, or add the folder to ALLOWED in hack/check-layering.py")
            continue
        for number, angled, include in includes(root, path):
            where = f"{path}:{number}"
            for pattern, homes, library in THIRD_PARTY:
                if angled and pattern.match(include) and not path.startswith(homes):
                    problems.append(
                        f"{where}: includes <{include}>, but {library} may only be used in "
                        f"{', '.join(homes)}: go through the interface that folder offers")
            if angled:
                continue
            include = resolved(root, path, include)
            if not is_project_header(root, include):
                continue
            target = top_folder(include)
            if target not in ALLOWED.get(layer, set()):
                if target in UNCHECKED:
                    what = f"'{target}/' is test or benchmark code, which production code never includes"
                elif layer in ("sync", "status") and target in ("sync", "status"):
                    what = "sync and status never include each other"
                else:
                    what = (f"'{layer}/' may include only {', '.join(sorted(ALLOWED[layer]))} "
                            f"(apis <- federation <- sync, status <- controllers <- cmd)")
                problems.append(
                    f'{where}: includes "{include}": {what}; move the shared part to a layer '
                    f"to the left, or pass it in through an interface")
                continue
            restricted = restriction_problem(path, include)
            if restricted:
                problems.append(f'{where}: includes "{include}": {restricted}')
                continue
            source_folder, target_folder = subfolder(path), subfolder(include)
            if (layer == "federation" and target == "federation" and source_folder
                    and target_folder and source_folder != target_folder):
                ordered = federation_order_problem(source_folder, target_folder)
                if ordered:
                    problems.append(f'{where}: includes "{include}": {ordered}')
                    continue
            if (layer in CYCLE_CHECKED and source_folder and target_folder
                    and source_folder != target_folder):
                edges.setdefault(source_folder, set()).add(target_folder)
                edge_example.setdefault((source_folder, target_folder), where)
    cycle = find_cycle(edges)
    if cycle:
        steps = [f"{a} -> {b} ({edge_example[(a, b)]})" for a, b in zip(cycle, cycle[1:])]
        problems.append(
            "folders include each other in a cycle: " + "; ".join(steps) +
            ": move what both need into the folder further left (e.g. federation/runtime or apis/meta)")
    return problems


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = check(root)
    for problem in problems:
        print(problem)
    if problems:
        print(f"layering: {len(problems)} problem(s); see DESIGN.md section 2", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
