// SPDX-License-Identifier: GPL-2.0
/*
 * kit_usbhalt - a test tool: halt an endpoint of a USB device, at module load
 *
 * tests/skeleton.c loads it to make the Loopback gadget stall, as a real
 * device does when it refuses a transfer:
 *
 *	insmod kit_usbhalt.ko ep=0x81		(bulk-in 1; 0x02: bulk-out 2)
 *
 * The load sends SET_FEATURE(ENDPOINT_HALT) for ep to the first device
 * with the ids vendor:product (default 0xfff0:0xfff0, the gadget's), as a
 * control request of its own: usbfs refuses that request for an
 * interface that a driver has claimed, and here the driver under test has.
 * dummy_hcd then fails each transfer to ep with -EPIPE until the host
 * clears the halt (usb_clear_halt()).  The load fails with the request's
 * error, or -ENODEV without such a device; it succeeds otherwise, and the
 * module does nothing more: the test unloads it.
 *
 * It is a probe for the tests, not a template to copy.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/usb.h>

static ushort vendor = 0xfff0;
module_param(vendor, ushort, 0444);
MODULE_PARM_DESC(vendor, "The device's vendor id (default 0xfff0)");

static ushort product = 0xfff0;
module_param(product, ushort, 0444);
MODULE_PARM_DESC(product, "The device's product id (default 0xfff0)");

static ushort ep;
module_param(ep, ushort, 0444);
MODULE_PARM_DESC(ep, "The endpoint's address: its number, | 0x80 for IN");

static struct usb_device_id kit_usbhalt_id;	/* vendor:product */

/* usb_for_each_dev()'s callback: the device with our ids, referenced. */
static int kit_usbhalt_match(struct usb_device *udev, void *data)
{
	struct usb_interface *intf = usb_ifnum_to_if(udev, 0);
	struct usb_device **found = data;

	if (!intf || !usb_match_one_id(intf, &kit_usbhalt_id))
		return 0;
	*found = usb_get_dev(udev);
	return 1;
}

static int __init kit_usbhalt_init(void)
{
	struct usb_device *udev = NULL;
	int ret;

	if (!(ep & USB_ENDPOINT_NUMBER_MASK) || ep & ~0x8f) {
		pr_err("ep=%#x: not a data endpoint's address\n", ep);
		return -EINVAL;
	}
	kit_usbhalt_id = (struct usb_device_id){ USB_DEVICE(vendor, product) };
	usb_for_each_dev(&udev, kit_usbhalt_match);
	if (!udev) {
		pr_info("no device %04x:%04x\n", vendor, product);
		return -ENODEV;
	}
	ret = usb_control_msg(udev, usb_sndctrlpipe(udev, 0),
			      USB_REQ_SET_FEATURE, USB_RECIP_ENDPOINT,
			      USB_ENDPOINT_HALT, ep, NULL, 0,
			      USB_CTRL_SET_TIMEOUT);
	pr_info("%s: endpoint %#x halted: %d\n", dev_name(&udev->dev), ep, ret);
	usb_put_dev(udev);
	return ret < 0 ? ret : 0;
}

static void __exit kit_usbhalt_exit(void)
{
}

module_init(kit_usbhalt_init);
module_exit(kit_usbhalt_exit);

MODULE_DESCRIPTION("iterkit test tool: halt a USB endpoint at load");
MODULE_LICENSE("GPL");
