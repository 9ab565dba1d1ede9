#!/usr/bin/env python3
"""Unit tests of hack/check-layering.py: each builds a small tree in a temporary folder."""

import importlib.util
import os
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "hack",
                      "check-layering.py")
spec = importlib.util.spec_from_file_location("check_layering", SCRIPT)
check_layering = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_layering)


class LayeringCheckTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="layering-test-")

    def write(self, path, *includes):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write("#pragma once\n")
            for include in includes:
                f.write(f"#include {include}\n")

    def problems(self):
        return check_layering.check(self.root)

    # Verifies that includes pointing left, or within a layer, pass.
    def test_includes_towards_the_left_pass(self):
        self.write("apis/meta/object.h", "<string>")
        self.write("federation/runtime/clock.h", '"apis/meta/object.h"')
        self.write("federation/client/client.h", '"federation/runtime/clock.h"')
        self.write("sync/a.h", '"federation/client/client.h"')
        self.write("status/b.h", '"federation/client/client.h"')
        self.write("controllers/manager/m.h", '"sync/a.h"', '"status/b.h"')
        self.write("cmd/webhook/main.cc", '"controllers/manager/m.h"')
        self.write("tests/unit/x_test.cc", '"cmd/webhook/main.cc"')
        self.assertEqual(self.problems(), [])

    # Verifies that the deliberately wrong include of the issue (apis including the client) fails,
    # naming the file, the line and the rule.
    def test_apis_including_federation_fails(self):
        self.write("federation/client/api_error.h")
        self.write("apis/meta/json_reader.h", "<string>", '"federation/client/api_error.h"')
        problems = self.problems()
        self.assertEqual(len(problems), 1)
        self.assertIn("apis/meta/json_reader.h:3", problems[0])
        self.assertIn('"federation/client/api_error.h"', problems[0])

    # Verifies that a layer including one to its right fails.
    def test_federation_including_sync_fails(self):
        self.write("sync/dispatcher.h")
        self.write("federation/informer/store.cc", '"sync/dispatcher.h"')
        self.assertEqual(len(self.problems()), 1)

    # Verifies that sync and status never include each other.
    def test_sync_and_status_are_independent(self):
        self.write("status/collector.h")
        self.write("sync/controller.cc", '"status/collector.h"')
        problems = self.problems()
        self.assertEqual(len(problems), 1)
        self.assertIn("sync and status never include each other", problems[0])

    # Verifies that production code including test code fails.
    def test_production_including_tests_fails(self):
        self.write("tests/support/fake_clock.h")
        self.write("controllers/kubefedcluster/c.cc", '"tests/support/fake_clock.h"')
        self.assertEqual(len(self.problems()), 1)

    # Verifies that two folders of one layer including each other are reported as a cycle (in
    # federation/, whose folders are ordered, the order reports it first).
    def test_cycle_between_folders_of_a_layer_fails(self):
        self.write("controllers/manager/assembly.h", '"controllers/scheduling/rsp.h"')
        self.write("controllers/scheduling/rsp.h")
        self.write("controllers/scheduling/plugin.h", '"controllers/manager/assembly.h"')
        problems = self.problems()
        self.assertEqual(len(problems), 1)
        self.assertIn("cycle", problems[0])
        self.assertIn("controllers/scheduling/plugin.h:2", problems[0])

    # Verifies that future folders outside federation/ are allowed by rule, with no edit to the
    # script.
    def test_future_folders_are_allowed(self):
        self.write("federation/admission/server.h", '"apis/core/x.h"')
        self.write("apis/core/x.h")
        self.write("status/collect/controller.h", '"federation/admission/server.h"')
        self.write("cmd/webhook/run.h", '"cmd/flags/flags.h"', '"status/collect/controller.h"')
        self.write("cmd/flags/flags.h")
        self.assertEqual(self.problems(), [])

    # Verifies that a relative include cannot hide a crossing: it is resolved against the
    # including file's folder first.
    def test_relative_include_crossing_a_layer_fails(self):
        self.write("sync/dispatcher.h")
        self.write("federation/informer/store.cc", '"../../sync/dispatcher.h"')
        problems = self.problems()
        self.assertEqual(len(problems), 1)
        self.assertIn('includes "sync/dispatcher.h"', problems[0])
        self.assertIn("federation/informer/store.cc:2", problems[0])

    # Verifies that an include of a file beside the including one is checked as that file.
    def test_include_of_a_file_beside_is_that_file(self):
        self.write("federation/client/rest_client.h")
        self.write("federation/runtime/clock.h")
        self.write("federation/runtime/clock.cc", '"clock.h"')
        self.write("federation/runtime/x.cc", '"../client/rest_client.h"')
        problems = self.problems()
        self.assertEqual(len(problems), 1)
        self.assertIn("federation/runtime/x.cc:2", problems[0])

    # Verifies the order inside federation/: the runtime includes nothing of the client.
    def test_runtime_including_the_client_fails(self):
        self.write("federation/client/rest_client.h", '"federation/runtime/clock.h"')
        self.write("federation/runtime/clock.h")
        self.write("federation/runtime/backoff.cc", '"federation/client/rest_client.h"')
        problems = [p for p in self.problems() if "FEDERATION_ORDER" not in p]
        self.assertTrue(any("federation/runtime/backoff.cc:2" in p and "left of it" in p
                            for p in problems), problems)

    # Verifies that the order holds between folders of one tier and towards later tiers, and
    # that includes towards earlier tiers pass.
    def test_federation_order(self):
        self.write("federation/runtime/clock.h")
        self.write("federation/client/rest_client.h", '"federation/runtime/clock.h"')
        self.write("federation/informer/store.h", '"federation/client/rest_client.h"')
        self.write("federation/controller/c.h", '"federation/informer/store.h"')
        self.assertEqual(self.problems(), [])
        self.write("federation/events/recorder.h", '"federation/informer/store.h"')
        self.write("federation/informer/reflector.h", '"federation/controller/c.h"')
        problems = self.problems()
        self.assertEqual(len(problems), 2, problems)
        self.assertTrue(any("federation/events/recorder.h:2" in p for p in problems))
        self.assertTrue(any("federation/informer/reflector.h:2" in p for p in problems))

    # Verifies that a new federation/ folder must be given its place in the order.
    def test_unknown_federation_folder_fails(self):
        self.write("federation/runtime/clock.h")
        self.write("federation/quota/limits.h", '"federation/runtime/clock.h"')
        problems = self.problems()
        self.assertEqual(len(problems), 1)
        self.assertIn("'federation/quota/' has no place in FEDERATION_ORDER", problems[0])

    # Verifies that the sync plan includes nothing that does I/O: neither federation/ nor the
    # rest of sync/.
    def test_sync_plan_includes_only_apis_and_itself(self):
        self.write("apis/meta/object.h")
        self.write("federation/client/rest_client.h")
        self.write("sync/io/dispatcher.h", '"sync/plan/operation.h"')
        self.write("sync/plan/operation.h", '"apis/meta/object.h"')
        self.write("sync/plan/sync_plan.h", '"sync/plan/operation.h"', '"operation.h"')
        self.assertEqual(self.problems(), [])
        self.write("sync/plan/desired.cc", '"federation/client/rest_client.h"',
                   '"sync/io/dispatcher.h"')
        problems = self.problems()
        self.assertEqual(len(problems), 2, problems)
        self.assertTrue(all("never does I/O" in p for p in problems))

    # Verifies that a top-level folder that is no layer is reported instead of silently skipped.
    def test_unknown_top_level_folder_fails(self):
        self.write("plugins/p.h")
        problems = self.problems()
        self.assertEqual(len(problems), 1)
        self.assertIn("'plugins/' is not a layer", problems[0])

    # Verifies that Boost.Beast stays behind the client and the HTTP server.
    def test_beast_outside_client_and_serving_fails(self):
        self.write("federation/client/transport.cc", "<boost/beast/http.hpp>")
        self.write("federation/serving/server.cc", "<boost/beast/core.hpp>")
        self.write("sync/dispatch.cc", "<boost/beast/http.hpp>")
        problems = self.problems()
        self.assertEqual(len(problems), 1)
        self.assertIn("sync/dispatch.cc:2", problems[0])

    # Verifies that the command line reports problems with exit code 1 and a clean tree with 0.
    def test_exit_code(self):
        self.write("apis/meta/a.h")
        self.assertEqual(check_layering.main(["check-layering.py", self.root]), 0)
        self.write("apis/meta/b.h", '"sync/c.h"')
        self.write("sync/c.h")
        self.assertEqual(check_layering.main(["check-layering.py", self.root]), 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
