# SPDX-License-Identifier: GPL-2.0
"""Unit tests of iterconv/report.py: what callers see differently."""

import unittest

from iterconv.report import Report, diff
from iterconv.text import strip_comments


class Fn(Report):
    """A file of one write function w, converted in mode."""

    def __init__(self, body, mode):
        self.code = strip_comments(
            "static ssize_t w(struct file *file, const char __user *buf, "
            "size_t len, loff_t *ppos)\n{\n%s\n}\n" % body)
        self.reads, self.writes = {}, {"w": mode}
        self.notes = {"w": ("native" if mode == "native" else "wrapped",
                            "")}


class Callers(unittest.TestCase):
    def test_wrapped(self):
        self.assertIn("WRITE_FIXED now gets -EINVAL",
                      Fn("", "wrap").callers("w"))

    def test_limit(self):
        c = Fn("\tif (len > max)\n\t\treturn -EMSGSIZE;", "native")
        self.assertEqual(c.callers("w"), (
            "w_iter: one call per writev(), not per segment: len > max "
            "gives -EMSGSIZE for the total, where each segment under it "
            "was written (a partial write): decide which one callers "
            "should get"))

    def test_clamp(self):
        c = Fn("\tlen = min(len, (size_t)8);", "native")
        self.assertIn("min(len, (size_t)8) now bounds the total",
                      c.callers("w"))

    def test_left_alone_says_nothing(self):
        c = Fn("", "native")
        c.notes["w"] = ("left alone", "why")
        self.assertIsNone(c.callers("w"))


class Diff(unittest.TestCase):
    def test_labels(self):
        d = diff("x.c", "a\n", "b\n").split("\n")
        self.assertEqual(d[:2], ["--- a/x.c", "+++ b/x.c"])
        self.assertEqual(diff("x.c", "a\n", "a\n"), "")


if __name__ == "__main__":
    unittest.main()
