# SPDX-License-Identifier: GPL-2.0
"""Unit tests of iterconv/cli.py (and spatch.py, where spatch is
installed): the command line, and what find.cocci finds."""

import contextlib
import io
import os
import re
import shutil
import tempfile
import unittest

from iterconv import cli, spatch

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


if __name__ == "__main__":
    unittest.main()
