package rules

import "github.com/fixturegen/fixturegen/internal/python/suite"

// readProblems are the read's own findings: problems reading the tree,
// which the read reports where it meets them (suite.Problem); no check of
// their own.
var readProblems = []Rule{
	{
		ID:      suite.ProblemUndecodable,
		Summary: "a Python file in no encoding fixturegen knows",
		Meaning: "A Python file is not UTF-8 and declares no encoding, or one neither Python nor fixturegen knows.",
		Fix:     "Save it as UTF-8, or declare its encoding",
		Warning: true,
	},
	{
		ID:           suite.ProblemSyntax,
		Summary:      "a Python file has a syntax error",
		Meaning:      "A Python file has an unterminated string, a bracket never closed, unmatched or closed by the wrong one, or a bad dedent, reported with CPython's message where CPython reports it (`'(' was never closed` at the bracket, not at the end of the file); rules may miss code after it. (In the region's conftest it is an error.)",
		Fix:          "`python -m py_compile FILE` shows it",
		Warning:      true,
		Suppressible: true,
	},
	{
		ID:      suite.ProblemUnreadable,
		Summary: "a folder or file cannot be read",
		Meaning: "A folder or file cannot be read (permissions); a file larger than 16 MiB, or that is not a regular file (a FIFO, a socket, a device). Such a file costs at most one read of 64 KiB: check asks a file's size and type before it reads more, and never waits on a FIFO.",
		Fix:     "`chmod`, or leave it out of `--scan`",
		Warning: true,
	},
	{
		ID:      suite.ProblemSymlinkLoop,
		Summary: "a link to a folder that contains it",
		Meaning: "A symbolic link leads to a folder that contains it; it is not followed.",
		Fix:     "Remove the link",
		Warning: true,
	},
	{
		ID:      suite.ProblemSymlinkOutside,
		Summary: "a link to a folder outside the scanned ones",
		Meaning: "A symbolic link leads to a folder outside the scanned folders; it is not followed.",
		Fix:     "Scan that folder too (`--scan`), or replace the link with the folder",
		Warning: true,
	},
	{
		ID:      suite.ProblemDanglingSymlink,
		Summary: "a .py link to a file that does not exist",
		Meaning: "A `.py` link points to a file that does not exist.",
		Fix:     "Remove the link, or restore the file",
		Warning: true,
	},
}
