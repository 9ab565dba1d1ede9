#!/usr/bin/env python3
"""Helpers of hack/kubefed-compare.sh for comparing kubefedctl's outputs with KubeFed's.

  strip-additions TYPE < OURS > STRIPPED
      `kubefedctl enable TYPE -o yaml` of ours without the additions the README documents
      (sections "Workload status on federated objects" and "Staged rollout"), for the built-in
      workload types only: in the CRD document, spec.versions[0].additionalPrinterColumns,
      ...openAPIV3Schema.properties.status.properties.workload, ...status.properties.rollout and
      ...status.properties.conditions.items.properties.message.
      Fails when a workload type lacks one of them (the addition is gone or moved) and prints
      the removed paths with their line numbers on stderr. Other types pass through unchanged.
  same-documents A B
      Whether two `---`-separated YAML streams hold the same documents, in any order (KubeFed's
      `federate --contents` follows Go's map order). Prints the documents only one side has.
"""
import sys

# The five built-in workload types whose federated CRDs carry the workload status
# (core::builtInWorkloadKind).
WORKLOAD_TYPES = {
    "deployments.apps", "replicasets.apps", "statefulsets.apps", "daemonsets.apps", "jobs.batch"}

CRD_VERSION = ("spec", "versions", 0)
SCHEMA = CRD_VERSION + ("schema", "openAPIV3Schema", "properties")
ADDITIONS = [
    CRD_VERSION + ("additionalPrinterColumns",),
    SCHEMA + ("status", "properties", "workload"),
    SCHEMA + ("status", "properties", "rollout"),
    SCHEMA + ("status", "properties", "conditions", "items", "properties", "message"),
]


def split_documents(text):
    """The documents of a stream, each with its leading '---' line."""
    documents, current = [], []
    for line in text.splitlines(keepends=True):
        if line == "---\n" and current:
            documents.append("".join(current))
            current = []
        current.append(line)
    if current:
        documents.append("".join(current))
    return documents


class PathTracker:
    """The YAML path of each line of a block-style document as go-yaml writes one: mapping keys
    at their indentation, sequence items ("- ") at their parent key's indentation or deeper, a
    mapping inside an item starting on the item's line. Enough for the CRDs kubefedctl prints
    (no multi-line scalars)."""

    def __init__(self):
        self.stack = []  # (indent, key or item index, is_item)
        self.last_item = {}  # path of a sequence -> index of its last item

    def path(self):
        return tuple(name for _, name, _ in self.stack)

    def feed(self, line):
        """The path of `line`, and the column of the item dash it starts with (or None)."""
        content = line.rstrip("\n")
        indent = len(content) - len(content.lstrip(" "))
        rest = content[indent:]
        dash = None
        while rest == "-" or rest.startswith("- "):
            # A new item ends what was open at its column or deeper, the previous item included.
            while self.stack and (self.stack[-1][0] > indent or
                                  (self.stack[-1][0] == indent and self.stack[-1][2])):
                self.stack.pop()
            index = self.last_item.get(self.path(), -1) + 1
            self.last_item[self.path()] = index
            self.stack.append((indent, index, True))
            dash = indent if dash is None else dash
            indent, rest = indent + 2, rest[2:]
        if ":" in rest and not rest.startswith(("'", '"', "?")):
            while self.stack and self.stack[-1][0] >= indent:
                self.stack.pop()
            self.stack.append((indent, rest.split(":", 1)[0], False))
        return self.path(), dash


def strip_additions(type_name, text):
    documents = split_documents(text)
    if type_name not in WORKLOAD_TYPES:
        return text
    if len(documents) != 2:
        sys.exit(f"expected two documents (FederatedTypeConfig, CRD), got {len(documents)}")
    crd_lines = documents[1].splitlines(keepends=True)
    offset = len(documents[0].splitlines())
    tracker, kept, found = PathTracker(), [], {}
    pending_dash = None  # an item whose dash line was removed: its next kept line gets the dash
    for number, line in enumerate(crd_lines, start=offset + 1):
        path, dash = tracker.feed(line)
        addition = next((a for a in ADDITIONS if path[:len(a)] == a), None)
        if addition is not None:
            found.setdefault(addition, []).append(number)
            if dash is not None and path[-1] == addition[-1]:
                pending_dash = dash
            continue
        if pending_dash is not None:
            line = " " * pending_dash + "- " + line[pending_dash + 2:]
            pending_dash = None
        kept.append(line)
    missing = [a for a in ADDITIONS if a not in found]
    if missing:
        sys.exit(f"{type_name}: documented additions missing: " +
                 ", ".join(".".join(map(str, a)) for a in missing))
    for addition, lines in found.items():
        print(f"  {type_name}: removed {'.'.join(map(str, addition))} "
              f"(lines {lines[0]}-{lines[-1]})", file=sys.stderr)
    return documents[0] + "".join(kept)


def same_documents(a_path, b_path):
    a = sorted(split_documents(open(a_path).read()))
    b = sorted(split_documents(open(b_path).read()))
    if a == b:
        return True
    for document in a:
        if document not in b:
            print(f"only in {a_path}:\n{document}", file=sys.stderr)
    for document in b:
        if document not in a:
            print(f"only in {b_path}:\n{document}", file=sys.stderr)
    return False


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "strip-additions":
        sys.stdout.write(strip_additions(sys.argv[2], sys.stdin.read()))
    elif len(sys.argv) == 4 and sys.argv[1] == "same-documents":
        sys.exit(0 if same_documents(sys.argv[2], sys.argv[3]) else 1)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
