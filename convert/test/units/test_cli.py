# SPDX-License-Identifier: GPL-2.0
"""Unit tests of iterconv/cli.py (and spatch.py, where spatch is
installed): the command line, what find.cocci finds, and what
chunk-loop.cocci's byte scan rewrites."""

import contextlib
import io
import os
import re
import shutil
import tempfile
import unittest

from iterconv import cli, spatch
from iterconv.text import function_span, strip_comments

SRC = ("static ssize_t r(struct file *file, char __user *buf, size_t n,\n"
       "\t\t loff_t *ppos)\n{\n\treturn 0;\n}\n"
       "static const struct file_operations o = {\n\t.read = r,\n};\n")


class Cli(unittest.TestCase):
    def test_usage(self):
        for argv in ([], ["--native"], ["--bogus", "x.c"]):
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                self.assertEqual(cli.main(argv), 2)
            self.assertIn("scripts/convert [--native|--wrap]",
                          err.getvalue())

    def test_help(self):
        """--help prints the whole text on stdout and exits 0; the text
        describes every option the command takes, each on a line of its
        own; an option it doesn't take is named in the usage's error."""
        for a in ("--help", "-h"):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), \
                    contextlib.redirect_stderr(err):
                self.assertEqual(cli.main(["x.c", a]), 0)
            self.assertEqual(out.getvalue(), cli.__doc__)
            self.assertEqual(err.getvalue(), "")
        described = re.findall(r"^  (-[-\w]+)(?:, (-\w))?", cli.__doc__,
                               re.M)
        self.assertEqual(sorted(o for d in described for o in d if o),
                         sorted(cli.OPTIONS))
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(cli.main(["--bogus", "x.c"]), 2)
            self.assertEqual(cli.main(["x.c", "--tree"]), 2)
        self.assertIn("convert: no option --bogus\n", err.getvalue())
        self.assertIn("convert: --tree takes an argument\n", err.getvalue())


@unittest.skipUnless(shutil.which("spatch"), "no spatch (scripts/setup "
                     "convert installs it)")
class Find(unittest.TestCase):
    def test_find(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "x.c")
            with open(path, "w") as f:
                f.write(SRC)
            fns, fields = spatch.find(path)
            self.assertEqual(fns["r"]["buf"], "buf")
            self.assertEqual(fns["r"]["kind"], "read")
            self.assertEqual([(f["ops"], f["field"], f["value"])
                              for f in fields], [("o", "read", "r")])
            self.assertIsNone(spatch.parse_error(path))


@unittest.skipUnless(shutil.which("spatch"), "no spatch (scripts/setup "
                     "convert installs it)")
class ByteScan(unittest.TestCase):
    CASE = os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "byte-scan.c")
    NATIVE = ("usb_write", "dev_write")
    WRAPPED = ("continue_write", "skip_write", "int_write", "odd_write",
               "skip_fault_write", "note_fault_write")

    def test_byte_scan(self):
        """convert/test/byte-scan.c: the watchdogs' scans, the char at
        the loop's index read on every path through the loop, take
        get_iter(); a scan that steps i itself, reads an int, reads under
        a condition, or goes on after a failed read is left alone
        (continue_write's continue is loop_check()'s)."""
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.c")
            spatch.spatch("chunk-loop", self.CASE, out, {
                "NATIVE_WRITE": " ".join(self.NATIVE + self.WRAPPED)})
            with open(out) as f:
                code = strip_comments(f.read())
        body = lambda fn: code[slice(*function_span(code, fn))]
        for fn in self.NATIVE + ("continue_write",):
            self.assertIn("if (get_iter(c, from))", body(fn), fn)
            self.assertNotIn("get_user", body(fn), fn)
        for fn in self.WRAPPED[1:]:
            self.assertIn("get_user(c, data + i)", body(fn), fn)


if __name__ == "__main__":
    unittest.main()
