# SPDX-License-Identifier: GPL-2.0
"""What the unit tests share: a small tree of files to run on."""

import os
import tempfile
import unittest


def write_tree(root, files):
    """Write files, (path relative to root, text) pairs, under root."""
    for rel, text in files:
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)


class TreeCase(unittest.TestCase):
    """A test case with the scratch tree TREE (paths and texts, as
    write_tree() takes them) written anew in self.tree for each test."""
    TREE = ()

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.tree = self.tmp.name
        write_tree(self.tree, self.TREE)

    def tearDown(self):
        self.tmp.cleanup()
