# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/convert-survey's file list: the files it takes,
and with --modules (scripts/convert-upstream's) their modules' others."""

import importlib.machinery
import importlib.util
import os
import tempfile
import unittest

from scratch import write_tree

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "..", "scripts", "convert-survey")
_loader = importlib.machinery.SourceFileLoader("convert_survey", SCRIPT)
_spec = importlib.util.spec_from_loader("convert_survey", _loader)
survey = importlib.util.module_from_spec(_spec)
_loader.exec_module(survey)

FOPS = "static const struct file_operations f = {\n\t.read = r,\n};\n"
TREE = {
    "drivers/char/tpm/Makefile": "obj-$(CONFIG_TCG_TPM) += tpm.o\n"
    "tpm-y := tpm-chip.o \\\n\ttpm-dev.o\ntpm-y += eventlog/common.o\n"
    "tpm-$(CONFIG_ACPI) += tpm_ppi.o\nobj-m += other.o\n",
    "drivers/char/tpm/tpm-dev.c": FOPS,
    "drivers/char/tpm/tpm-chip.c": "int chip;\n",
    "drivers/char/tpm/tpm_ppi.c": "int ppi;\n",
    "drivers/char/tpm/other.c": "int other;\n",
    "drivers/char/tpm/eventlog/common.c": "int common;\n",
    "drivers/char/lone.c": FOPS,
    "drivers/misc/mei/Makefile": "subdir-ccflags-y += -I$(src)\n"
    "mei-me-objs := pci-me.o \\\n\tme.o\n",
    "drivers/misc/mei/pci-me.c": FOPS,
    "drivers/misc/mei/me.c": "int me;\n",
    # In a comment only: not taken.
    "drivers/char/doc.c": "/*\n" + FOPS + " */\n",
}


class List(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.src = self.tmp.name
        write_tree(self.src, TREE.items())

    def tearDown(self):
        self.tmp.cleanup()

    def test_found(self):
        self.assertEqual(survey.found(self.src, ["drivers/char"]),
                         ["drivers/char/lone.c", "drivers/char/tpm/tpm-dev.c"])

    def test_module_files(self):
        self.assertEqual(
            survey.module_files(self.src, "drivers/char/tpm/tpm-dev.c"),
            ["drivers/char/tpm/tpm-dev.c", "drivers/char/tpm/tpm-chip.c",
             "drivers/char/tpm/eventlog/common.c",
             "drivers/char/tpm/tpm_ppi.c"])
        # A module's name with hyphens.
        self.assertEqual(
            survey.module_files(self.src, "drivers/misc/mei/pci-me.c"),
            ["drivers/misc/mei/pci-me.c", "drivers/misc/mei/me.c"])
        # No Makefile, or a module of one file: the file alone.
        self.assertEqual(survey.module_files(self.src, "drivers/char/lone.c"),
                         ["drivers/char/lone.c"])


if __name__ == "__main__":
    unittest.main()
