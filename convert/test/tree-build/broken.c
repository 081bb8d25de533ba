// SPDX-License-Identifier: GPL-2.0
/*
 * A read that a macro also calls, by a name it pastes together: the
 * converter's search for other uses of the name can't see it, renames
 * the function, and the macro's call no longer builds.  Only compiling
 * tells (--tree): --native is refused, --wrap (the name stays) builds.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>

#define PEEK(name, buf)	name##_read(NULL, buf, 1, NULL)

static ssize_t broken_read(struct file *file, char __user *buf,
			   size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, "broken\n", 7);
}

static int __maybe_unused broken_peek(char __user *buf)
{
	return PEEK(broken, buf);
}

static const struct file_operations broken_fops = {
	.owner	= THIS_MODULE,
	.read	= broken_read,
};

static struct miscdevice broken_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "tree_broken",
	.fops	= &broken_fops,
};

static int __init broken_init(void)
{
	return misc_register(&broken_misc);
}
module_init(broken_init);
