// The JUnit report verify writes, read back with a strict XML reader: its numbers, and whether it agrees with
// the JSON report (a testcase per case, as many failures and errors, as many skips).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "vitest";
import type { VerifyReport } from "../../src/verify/index.js";
import { elementsNamed, parseXml, type XmlElement } from "./xml.js";

/**
 * The JUnit report's numbers: the <testcase>s of its cases' <testsuite> by outcome, and that suite's attributes;
 * `flows`, the names of the flows' suite's <testcase>s when it has one (verify's flows run after the cases).
 */
export function junitCounts(xml: string) {
  const root = parseXml(xml);
  const suites = elementsNamed(root, "testsuite");
  expect(suites.length === 1 || suites.length === 2, `${suites.length} test suites`).toBe(true);
  const suite = suites[0]!;
  const flows = suites[1] ? elementsNamed(suites[1], "testcase").map((c) => c.attributes.name) : [];
  const cases = elementsNamed(suite, "testcase");
  const has = (c: XmlElement, name: string) => c.children.some((child) => child.name === name);
  return {
    root: root.name,
    suite: suite.attributes,
    tests: cases.length,
    failures: cases.filter((c) => has(c, "failure")).length,
    errors: cases.filter((c) => has(c, "error")).length,
    skipped: cases.filter((c) => has(c, "skipped")).length,
    cases,
    flows,
  };
}

/** The JUnit report agrees with the JSON one: a testcase per case, as many failures (+ errors) and skips. */
export async function expectReportsAgree(
  dir: string,
): Promise<{ report: VerifyReport; junit: ReturnType<typeof junitCounts> }> {
  const report = JSON.parse(await readFile(path.join(dir, "verify-report.json"), "utf8")) as VerifyReport;
  const junit = junitCounts(await readFile(path.join(dir, "verify-report.junit.xml"), "utf8"));
  expect(junit.root).toBe("testsuites");
  expect(junit.tests).toBe(report.results.length);
  expect(junit.failures + junit.errors).toBe(report.counts.failed);
  expect(junit.skipped).toBe(report.counts.skipped);
  expect(junit.suite).toMatchObject({
    tests: String(report.results.length),
    failures: String(junit.failures),
    errors: String(junit.errors),
    skipped: String(report.counts.skipped),
  });
  expect(junit.cases.map((c) => c.attributes.name)).toEqual(report.results.map((r) => r.case));
  expect(junit.flows).toEqual((report.flows ?? []).map((flow) => flow.flow));
  expect(await readFile(path.join(dir, "verify-report.md"), "utf8")).toContain("# Contract verification");
  return { report, junit };
}
