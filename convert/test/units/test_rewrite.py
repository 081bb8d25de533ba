# SPDX-License-Identifier: GPL-2.0
"""Unit tests of iterconv/rewrite.py: the text around spatch's output."""

import unittest

from iterconv.rewrite import Rewrite, declaration, field_line, layout


class Layout(unittest.TestCase):
    def test_declaration_wraps_at_80(self):
        self.assertEqual(declaration("static ssize_t ", "f", "to"),
                         "static ssize_t f_iter(struct kiocb *iocb, "
                         "struct iov_iter *to);")
        long = declaration("static ssize_t ", "a_rather_long_name", "from")
        first, second = long.split("\n")
        self.assertTrue(first.endswith("(struct kiocb *iocb,"))
        self.assertEqual(len(second.expandtabs(8)) - len(second.lstrip()),
                         len("static ssize_t a_rather_long_name_iter("))

    def test_field_line(self):
        self.assertEqual(field_line("owner", "THIS_MODULE,", None),
                         "\t.owner = THIS_MODULE,")
        self.assertEqual(field_line("owner", "X,", (24, True)),
                         "\t.owner\t\t= X,")
        self.assertEqual(field_line("owner", "X,", (16, False)),
                         "\t.owner  = X,")

    def test_align(self):
        out = Rewrite.align("\t.open\t\t= o,\n\t.read_iter = r_iter,\n"
                            "\t.release\t= c,")
        self.assertEqual(out.split("\n")[1], "\t.read_iter\t= r_iter,")
        # single spaces where the initializer has them
        same = "\t.open = o,\n\t.read_iter = r_iter,"
        self.assertEqual(Rewrite.align(same), same)

    def test_layout(self):
        self.assertEqual(layout("\t.open\t\t= o,"), (24, True, "="))
        self.assertEqual(layout("\t.open  = o,"), (15, False, "="))
        self.assertEqual(layout("\t.open =\t\to,"), (24, True, "value"))
        self.assertEqual(layout("\t.owner =        THIS_MODULE,"),
                         (24, False, "value"))
        for single in ("\t.open = o,", "\t.open =o,", "int a = 1;"):
            self.assertIsNone(layout(single), single)

    def test_align_value_column(self):
        """Where the "=" follows the field and the values line up
        (drivers/watchdog/pcwd_usb.c, with tabs; drivers/hid/hidraw.c,
        with spaces), the new line's value lines up with theirs."""
        pcwd = ("\t.owner =\tTHIS_MODULE,\n\t.llseek =\tno_llseek,\n"
                "\t.write_iter = usb_pcwd_write_iter,\n"
                "\t.unlocked_ioctl = usb_pcwd_ioctl,\n"
                "\t.open =\t\tusb_pcwd_open,")
        self.assertEqual(Rewrite.align(pcwd).split("\n")[2],
                         "\t.write_iter =\tusb_pcwd_write_iter,")
        hidraw = ("\t.owner =        THIS_MODULE,\n"
                  "\t.read_iter = hidraw_read_iter,\n"
                  "\t.write =        hidraw_write,")
        self.assertEqual(Rewrite.align(hidraw).split("\n")[1],
                         "\t.read_iter =    hidraw_read_iter,")
        # A field too long for the column: one space.
        self.assertEqual(field_line("unlocked_ioctl_iter", "x,",
                                    (24, True, "value")),
                         "\t.unlocked_ioctl_iter = x,")

    def test_wrap_long(self):
        long = ("\tif (copy_to_iter(alarm_events, sizeof(struct "
                "tlclk_alarms), to) != sizeof(struct tlclk_alarms)) {")
        self.assertEqual(Rewrite.wrap_long("x\n" + long + "\n", ""), (
            "x\n\tif (copy_to_iter(alarm_events, sizeof(struct "
            "tlclk_alarms), to) !=\n\t    sizeof(struct tlclk_alarms)) {\n"))
        # The file's own long lines, and those with no place to break,
        # stay as they are.
        self.assertEqual(Rewrite.wrap_long(long, long), long)
        odd = "\tif (" + "a" * 90 + ") {"
        self.assertEqual(Rewrite.wrap_long(odd, ""), odd)
        # After an else.
        other = long.replace("\tif (copy_to_iter(alarm_events",
                             "\t} else if (copy_to_iter(ev")
        self.assertEqual(Rewrite.wrap_long(other, ""), other.replace(
            ") != ", ") !=\n\t\t   "))
        # A comparison inside a call or a string is no place to break:
        # where the condition's own is past 80, the line stays.
        inner = ("\tif (f(a == b, \"x != y\", " + "c" * 60 +
                 ") != sizeof(struct tlclk_alarms)) {")
        self.assertEqual(Rewrite.wrap_long(inner, ""), inner)

    def test_spacing(self):
        self.assertEqual(Rewrite.spacing("}\nFOPS_READ_ITER_HELPER(f);\n"),
                         "}\n\nFOPS_READ_ITER_HELPER(f);\n")

    def test_blank_after_locals(self):
        out = Rewrite.blank_after_locals(
            "{\n\tsize_t count = iov_iter_count(to);\n\tif (!count)\n")
        self.assertEqual(out, "{\n\tsize_t count = iov_iter_count(to);\n\n"
                         "\tif (!count)\n")
        keep = "{\n\tsize_t count = iov_iter_count(to);\n\tint n = 0;\n"
        self.assertEqual(Rewrite.blank_after_locals(keep), keep)


if __name__ == "__main__":
    unittest.main()
