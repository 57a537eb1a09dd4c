#!/usr/bin/env python3
"""Checks the AppStream metainfo or the desktop file that the packages install.

    check-packaging.py metainfo FILE --version X.Y.Z --homepage URL
    check-packaging.py desktop FILE --main src/app/main.cpp --icons resources/icons

The files must agree with each other and with the build (version, homepage, the desktop file
id the app announces to Wayland, the icon). Those checks always run; then the official
validator runs, and without it the test skips (exit 77) with the reason.
"""

import argparse
import configparser
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

SKIP = 77


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def run_validator(command, package):
    if shutil.which(command[0]) is None:
        print(f"SKIP: {command[0]} is not installed (Debian package: {package})")
        sys.exit(SKIP)
    print("$ " + " ".join(command), flush=True)
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(result.stdout, end="")
    if result.returncode != 0:
        fail(f"{command[0]} rejected {command[-1]} (exit code {result.returncode})")


def check_metainfo(path, args):
    root = ElementTree.parse(path).getroot()
    component_id = root.findtext("id", "").strip()
    if path.name != f"{component_id}.metainfo.xml":
        fail(f"{path.name} should be named after its component id: {component_id}.metainfo.xml")

    releases = root.findall("releases/release")
    if not releases:
        fail("no <release> in <releases>")
    newest = releases[0].get("version")
    if newest != args.version:
        fail(f"the newest release is {newest}, the project's version is {args.version} "
             "(add a <release> at the top of <releases>)")

    homepage = root.findtext("url[@type='homepage']", "").strip()
    if homepage.rstrip("/") != args.homepage.rstrip("/"):
        fail(f"the homepage is {homepage!r}, CMakeLists.txt says {args.homepage!r}")

    for launchable in root.findall("launchable[@type='desktop-id']"):
        desktop = path.parent / launchable.text.strip()
        if not desktop.is_file():
            fail(f"the launchable {launchable.text.strip()} is not in {path.parent}")

    run_validator(["appstreamcli", "validate", "--no-net", "--explain", str(path)], "appstream")


def check_desktop(path, args):
    entry = configparser.ConfigParser(interpolation=None, strict=True)
    entry.optionxform = str
    entry.read(path, encoding="utf-8")
    if "Desktop Entry" not in entry:
        fail("no [Desktop Entry] group")
    group = entry["Desktop Entry"]

    # On Wayland the compositor finds the window's icon and name through this id.
    announced = re.search(r'setDesktopFileName\(\s*QStringLiteral\("([^"]+)"\)', args.main.read_text(encoding="utf-8"))
    if not announced:
        fail(f"{args.main} does not call QApplication::setDesktopFileName")
    if path.name != f"{announced.group(1)}.desktop":
        fail(f"the app announces the desktop file id {announced.group(1)!r}, the file is {path.name}")

    icon = group.get("Icon", "")
    if not (args.icons / f"{icon}.svg").is_file():
        fail(f"Icon={icon}, but there is no {icon}.svg in {args.icons}")

    run_validator(["desktop-file-validate", str(path)], "desktop-file-utils")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=["metainfo", "desktop"])
    parser.add_argument("file", type=Path)
    parser.add_argument("--version")
    parser.add_argument("--homepage")
    parser.add_argument("--main", type=Path)
    parser.add_argument("--icons", type=Path)
    args = parser.parse_args()
    if args.kind == "metainfo":
        check_metainfo(args.file, args)
    else:
        check_desktop(args.file, args)
    print(f"PASS: {args.file.name}")


if __name__ == "__main__":
    main()
