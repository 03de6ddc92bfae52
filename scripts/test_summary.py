#!/usr/bin/env python3
"""Sums up the Surefire reports written since a marker file: one closing line with the counts,
and every skipped test with the reason it gave, so that a skip is never read as a pass.

Usage: test_summary.py ROOT MARKER
"""
import glob
import os
import sys
import xml.etree.ElementTree as ET


def main(root, marker):
    since = os.path.getmtime(marker)
    passed = failed = skipped = 0
    skips = []
    for report in sorted(glob.glob(os.path.join(root, "*", "target", "surefire-reports", "TEST-*.xml"))):
        if os.path.getmtime(report) < since:
            continue  # left by an earlier run
        for case in ET.parse(report).getroot().iter("testcase"):
            name = case.get("classname", "?") + "#" + case.get("name", "?")
            if case.find("failure") is not None or case.find("error") is not None:
                failed += 1
            elif case.find("skipped") is not None:
                skipped += 1
                reason = case.find("skipped").get("message") or "no reason given"
                skips.append(f"  {name}: {reason}")
            else:
                passed += 1
    if skips:
        print("Skipped tests, each with its reason:")
        print("\n".join(skips))
    print(f"Summary: {passed} passed, {failed} failed, {skipped} skipped")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
