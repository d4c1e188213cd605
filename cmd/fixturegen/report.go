package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/spf13/pflag"

	"github.com/fixturegen/fixturegen/internal/cli/completion"
)

// reportFormats are the formats check and triage print their reports in.
var reportFormats = []string{"text", "json", "github"}

// printable is what check and triage print: text for people, one JSON
// document for scripts, workflow annotations for GitHub Actions.
type printable interface {
	Text(w io.Writer)
	JSON(w io.Writer) error
	GitHub(w io.Writer)
}

// addReportFormat defines a command's --format flag for a report.
func addReportFormat(fs *pflag.FlagSet, format *string) {
	fs.StringVar(format, "format", "text", "output `FORMAT`: text, json or github (workflow annotations)")
	completion.Values(fs, "format", reportFormats...)
}

// checkReportFormat refuses a --format no report is printed in.
func checkReportFormat(format string) error {
	if !slices.Contains(reportFormats, format) {
		return usageError{fmt.Sprintf("--format must be text, json or github, not %q", format)}
	}
	return nil
}

// writeReport prints r in format, one of reportFormats.
func writeReport(w io.Writer, format string, r printable) error {
	switch format {
	case "json":
		return r.JSON(w)
	case "github":
		r.GitHub(w)
	default:
		r.Text(w)
	}
	return nil
}
