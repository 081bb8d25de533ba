// SPDX-License-Identifier: GPL-2.0
/*
 * kit_debugfs_hooks - debugfs-demo's test hooks, for the kit's own tests
 * (tests/debugfs-demo.c) and no part of the template.  The tests need what
 * no driver offers: to hold the lock while they look at what the other
 * calls do, and to remove a file while the module stays.
 * kit-debugfs/test-hooks takes a command per write:
 *   hold	take the lock and keep it until "release" is written, a
 *		signal comes (-ERESTARTSYS) or KIT_HOLD_MAX passes (-ETIMEDOUT);
 *   release	let "hold" go;
 *   recreate	remove value and create it again, as when a device goes away
 *		and comes back while the module stays: calls on files still
 *		open on the old one get -EIO.
 * It is the same .write file, behind debugfs' proxy, in both forms.
 *
 * Only the kit's build has them (scripts/test-hooks): it builds the module
 * kit_debugfs.ko from this file, which includes the driver's source whole, so
 * that the hooks reach its static lock and files, and makes the module's
 * init the driver's, then the hooks'.  The driver's own Kbuild, which a
 * copy of the template builds, knows nothing of them.
 */
#include <linux/module.h>

/* The driver's module_init() names the init that ours calls first. */
#pragma push_macro("module_init")
#undef module_init
#define module_init(fn)
#include "kit_debugfs.c"
#pragma pop_macro("module_init")

#include "test_hooks.h"

static DEFINE_MUTEX(kit_files_lock);	/* one "recreate" at a time */

static int kit_recreate_value(struct kit_debugfs *kd)
{
	struct dentry *file;

	mutex_lock(&kit_files_lock);
	file = debugfs_lookup(kit_files[0].name, kd->dir);
	debugfs_remove(file);	/* waits for its calls in flight */
	dput(file);		/* debugfs_lookup()'s reference */
	file = kit_create_file(kd, &kit_files[0]);
	mutex_unlock(&kit_files_lock);
	return PTR_ERR_OR_ZERO(file);
}

static ssize_t kit_hooks_write(struct file *file, const char __user *buf,
			       size_t count, loff_t *ppos)
{
	struct kit_debugfs *kd = file->private_data;
	char cmd[16];		/* "recreate\n" and a NUL, with room to spare */
	int ret;

	ret = kit_hooks_command(cmd, sizeof(cmd), buf, count);
	if (ret)
		return ret;
	if (sysfs_streq(cmd, "release"))
		kit_release();
	else if (sysfs_streq(cmd, "hold"))
		ret = kit_hold(&kd->lock);
	else if (sysfs_streq(cmd, "recreate"))
		ret = kit_recreate_value(kd);
	else
		ret = -EINVAL;
	return ret ? ret : count;
}

static const struct file_operations kit_hooks_fops = {
	.owner		= THIS_MODULE,
	.open		= simple_open,
	.write		= kit_hooks_write,
	.llseek		= default_llseek,
};

static int kit_test_hooks_add(struct kit_debugfs *kd)
{
	struct dentry *file;

	kit_hold_init();
	file = debugfs_create_file("test-hooks", 0200, kd->dir, kd,
				   &kit_hooks_fops);
	return PTR_ERR_OR_ZERO(file);
}

static int __init kit_debugfs_hooks_init(void)
{
	int ret;

	ret = kit_debugfs_init();
	if (ret)
		return ret;
	ret = kit_test_hooks_add(&kit_debugfs);
	if (ret)
		debugfs_remove(kit_debugfs.dir);
	return ret;
}

module_init(kit_debugfs_hooks_init);
