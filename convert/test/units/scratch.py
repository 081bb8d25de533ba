# SPDX-License-Identifier: GPL-2.0
"""What the unit tests share: a small tree of files to run on."""

import os


def write_tree(root, files):
    """Write files, (path relative to root, text) pairs, under root."""
    for rel, text in files:
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)
