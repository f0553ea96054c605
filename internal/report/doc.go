// Package report is the one writer of simclock's output formats: JSON
// lines for every command (each object with its "kind" first), and for
// the findings of lint, bag inspect and doctor (rules.Finding) a human
// layout, SARIF 2.1.0 and JUnit XML as ament's linters write it.
//
// A command builds its own values (a bag report, a doctor report, lint's
// result) and hands them here to be written, so that one concept, a
// finding, is written one way whatever tool found it: the same JSON
// object, the same SARIF result, the same severity words.
package report
