package x12

// SplitStats is what became of one Validate's pieces of split sets.
type SplitStats struct{ Pieces, ExactStarts, Right, Wrong, TemplateWaits, VerdictWaits, Helped int }

// SetSplitTest makes verdicts wrong when same says so and guessed starts
// panic when fail says so, and reports each Validate's counts to done;
// the returned func undoes it. Tests using it must not run in parallel.
func SetSplitTest(same func(right bool) bool, fail func() bool, done func(SplitStats)) func() {
	splitTest.same, splitTest.fail = same, fail
	splitTest.done = func(s splitStats) {
		if done != nil {
			done(SplitStats{s.pieces, s.exactStarts, s.right, s.wrong, s.templateWaits, s.verdictWaits, s.helped})
		}
	}
	return func() { splitTest.same, splitTest.fail, splitTest.done = nil, nil, nil }
}

// SetHelpTest makes the reader check a job itself when help says so, given
// the jobs recorded and not begun it would otherwise want (1 checks every
// one it can, a large number none); the returned func undoes it.
func SetHelpTest(help func(ahead int) int) func() {
	splitTest.help = help
	return func() { splitTest.help = nil }
}
