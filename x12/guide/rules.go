package guide

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide/internal/spec"
)

// rule is a compiled situational or business rule of a guide.
type rule struct {
	ID       string
	Kind     string
	Message  string
	Business bool
	// npi and format rules: the element checked and its condition on an
	// element of the same segment (a qualifier's codes, or absence).
	npiPos, whenPos int
	when            *codeSet
	whenAbsent      bool
	pattern         *regexp.Regexp
	// at holds the loop rules of a rule whose loops each sit at one
	// level of the loop tree, none inside another of them (placeRule):
	// frameOf looks at one frame a loop instead of searching the stack.
	at []*loopRule
}

// loopRule is a rule bound to one loop of the tree (a rule on "2300" binds
// to each 2300 loop of an 837, which hangs under two HL levels).
type loopRule struct {
	r     *rule
	bit   uint64
	loop  *Loop // the loop whose rules hold it
	level int   // the loop's level in the tree (its frame's index in the stack), when r.at is set
	// condition: an element of a segment of this loop.
	condSeg         *Segment
	condPos, cond2  int // element position and component (0: none)
	in, notIn       *codeSet
	present, hasCnd bool
	// require/forbid target: child targetIdx of loop targetOwner, which is
	// this loop (direct) or a child loop of it.
	targetOwner *Loop
	targetIdx   int
	targetName  string
	// sum: total element and the summed items, found anywhere inside the loop.
	sumIndex int
	totalSeg *Segment
	totalPos int
}

// sumItem marks a guide segment whose element adds to (or subtracts from)
// a sum rule's running total.
type sumItem struct {
	rule  *rule
	pos   int
	minus bool
}

// sumState is a sum rule's running state in one loop instance.
type sumState struct {
	total, sum int64
	hasTotal   bool
	pos        int
	off        int64
}

// nestedTarget asks the close of a child loop instance to tell its enclosing
// rule loop that the rule's target was seen.
type nestedTarget struct {
	lr       *loopRule
	ruleLoop *Loop
}

func compileRule(g *Guide, sr *spec.Rule) (*rule, error) {
	r := &rule{ID: sr.ID, Kind: sr.Kind, Message: sr.Message, Business: sr.Business}
	if sr.Kind == "npi" || sr.Kind == "format" {
		seg, pos, _ := splitPath(sr.Target)
		wseg, wpos, _ := splitPath(sr.When.Element)
		if seg == "" || seg != wseg {
			return nil, fmt.Errorf("%s target %q and condition %q must name one segment", sr.Kind, sr.Target, sr.When.Element)
		}
		r.npiPos, r.whenPos, r.when, r.whenAbsent = pos, wpos, set(sr.When.In), sr.When.Absent
		if sr.Kind == "format" {
			re, err := regexp.Compile("^(?:" + sr.Pattern + ")$")
			if err != nil {
				return nil, fmt.Errorf("format pattern: %w", err)
			}
			r.pattern = re
		}
		scope := []*Loop{g.root}
		if sr.Loop != "" {
			scope = nil
			collectLoops(g.root, sr.Loop, &scope)
			if len(scope) == 0 {
				return nil, fmt.Errorf("no loop %s", sr.Loop)
			}
		}
		bound := false
		for _, l := range scope {
			visit := func(s *Segment) {
				if s.ID == seg && !slices.Contains(s.npi, r) {
					s.npi = append(s.npi, r)
					s.compileFeeds()
					bound = true
				}
			}
			if sr.Loop == "" {
				walk(l, visit)
			} else if s := childSegment(l, seg); s != nil {
				visit(s)
			}
		}
		if !bound {
			return nil, fmt.Errorf("%s rule %s: no segment %s", sr.Kind, sr.ID, seg)
		}
		return r, nil
	}
	var loops []*Loop
	collectLoops(g.root, sr.Loop, &loops)
	if len(loops) == 0 {
		return nil, fmt.Errorf("no loop %s", sr.Loop)
	}
	var lrs []*loopRule
	defer func() { placeRule(g.root, r, lrs) }()
	for _, l := range loops {
		if len(l.rules) >= 64 {
			return nil, fmt.Errorf("loop %s has more than 64 rules", l.ID)
		}
		lr := &loopRule{r: r, bit: 1 << uint(len(l.rules)), loop: l}
		lrs = append(lrs, lr)
		if sr.When != nil {
			seg, pos, comp := splitPath(sr.When.Element)
			s := childSegment(l, seg)
			if s == nil {
				return nil, fmt.Errorf("loop %s has no segment %s", l.ID, seg)
			}
			lr.condSeg, lr.condPos, lr.cond2, lr.hasCnd = s, pos, comp, true
			lr.in, lr.notIn, lr.present = set(sr.When.In), set(sr.When.NotIn), sr.When.Present
			s.conds = append(s.conds, lr)
			s.compileFeeds() // after the condition: a feed holds its answer for an empty value
		}
		switch sr.Kind {
		case "require", "forbid":
			owner, idx, err := resolveTarget(l, sr.Target)
			if err != nil {
				return nil, err
			}
			lr.targetOwner, lr.targetIdx, lr.targetName = owner, idx, sr.Target
			if owner != l {
				owner.nested = append(owner.nested, nestedTarget{lr: lr, ruleLoop: l})
			}
		case "sum":
			seg, pos, _ := splitPath(sr.Total)
			lr.totalSeg, lr.totalPos = childSegment(l, seg), pos
			if lr.totalSeg == nil {
				return nil, fmt.Errorf("loop %s has no segment %s", l.ID, seg)
			}
			lr.sumIndex = l.sums
			l.sums++
			lr.totalSeg.sumTotals = append(lr.totalSeg.sumTotals, sumItem{rule: r, pos: pos})
			lr.totalSeg.compileFeeds()
			for _, list := range [][]string{sr.Items, sr.Minus} {
				for _, p := range list {
					iseg, ipos, _ := splitPath(p)
					found := false
					walk(l, func(s *Segment) {
						if s.ID == iseg && !hasItem(s.sumItems, r, ipos) {
							s.sumItems = append(s.sumItems, sumItem{rule: r, pos: ipos, minus: containsStr(sr.Minus, p)})
							s.compileFeeds()
							found = true
						}
					})
					if !found && !anyItem(l, iseg) {
						return nil, fmt.Errorf("no segment %s inside loop %s", iseg, l.ID)
					}
				}
			}
		case "sequence":
			iseg, ipos, _ := splitPath(sr.Target)
			lr.sumIndex = l.sums
			l.sums++
			found := false
			walk(l, func(s *Segment) {
				if s.ID == iseg && !hasItem(s.seqItems, r, ipos) {
					s.seqItems = append(s.seqItems, sumItem{rule: r, pos: ipos})
					s.compileFeeds()
					found = true
				}
			})
			if !found && !anyItem(l, iseg) {
				return nil, fmt.Errorf("no segment %s inside loop %s", iseg, l.ID)
			}
		default:
			return nil, fmt.Errorf("unknown rule kind %q", sr.Kind)
		}
		l.rules = append(l.rules, lr)
	}
	return r, nil
}

func hasItem(items []sumItem, r *rule, pos int) bool {
	for _, it := range items {
		if it.rule == r && it.pos == pos {
			return true
		}
	}
	return false
}

func anyItem(l *Loop, id string) bool {
	found := false
	walk(l, func(s *Segment) { found = found || s.ID == id })
	return found
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// collectLoops finds every distinct loop with the given id ("ST": the root).
func collectLoops(root *Loop, id string, out *[]*Loop) {
	if id == "ST" {
		*out = append(*out, root)
		return
	}
	eachLoop(root, func(l *Loop) {
		if l != root && l.ID == id {
			*out = append(*out, l)
		}
	})
}

// splitPath reads "CLM05-3" as segment CLM, element 5, component 3: the
// element position is always the last two digits before any "-".
func splitPath(p string) (seg string, pos, comp int) {
	ref, c, hasComp := strings.Cut(p, "-")
	if len(ref) < 4 {
		return "", 0, 0
	}
	seg = ref[:len(ref)-2]
	pos, _ = strconv.Atoi(ref[len(ref)-2:])
	if hasComp {
		comp, _ = strconv.Atoi(c)
	}
	return seg, pos, comp
}

// childSegment finds a segment child of l by id (first of that id).
func childSegment(l *Loop, id string) *Segment {
	for _, c := range l.Children {
		if c.Segment != nil && c.Segment.ID == id {
			return c.Segment
		}
	}
	return nil
}

// resolveTarget reads "REF[F8]", "2000C" or "2010BA/DMG".
func resolveTarget(l *Loop, target string) (*Loop, int, error) {
	owner := l
	parts := strings.Split(target, "/")
	for _, p := range parts[:len(parts)-1] {
		next := childLoop(owner, p)
		if next == nil {
			return nil, 0, fmt.Errorf("loop %s has no child loop %s", owner.ID, p)
		}
		owner = next
	}
	last := parts[len(parts)-1]
	if cl := childLoop(owner, last); cl != nil {
		for i, c := range owner.Children {
			if c.Loop == cl {
				return owner, i, nil
			}
		}
	}
	id, qual, _ := strings.Cut(strings.TrimSuffix(last, "]"), "[")
	for i, c := range owner.Children {
		s := c.Segment
		if s == nil || s.ID != id {
			continue
		}
		if qual == "" {
			return owner, i, nil
		}
		if s.match.codes.has([]byte(qual)) {
			return owner, i, nil
		}
	}
	return nil, 0, fmt.Errorf("loop %s has no segment %s", owner.ID, last)
}

func childLoop(l *Loop, id string) *Loop {
	for _, c := range l.Children {
		if c.Loop != nil && c.Loop.ID == id {
			return c.Loop
		}
	}
	return nil
}

// applyRules feeds the rules with a segment that matched st.Segment. Most
// segments feed none (ruleWork unset): they cost one test here.
func (v *Validator) applyRules(seg *x12.Segment, st *Step) {
	if s := st.Segment; s.ruleWork {
		v.feedRules(seg, s)
	}
}

// feed is one thing a guide segment gives the rules: the condition of a
// rule of its loop, a sum's total or item, a sequence number, an NPI or a
// format. A segment's feeds (Segment.feeds) are its lists (conds,
// sumTotals, sumItems, seqItems, npi) in the order feedRules reads them,
// compiled into one short array so that a segment's rule work is one loop
// with the element each reads found in place.
type feed struct {
	kind  uint8 // feedCond, ...
	minus bool  // an item subtracted from its sum
	// empty is a condition's answer for an empty value (lr.testValue(nil)):
	// most absent elements a condition reads cost no code lookup.
	empty bool
	// pos is the element read (an NPI or format rule's condition element;
	// its target is r.npiPos), comp its component (conditions; 0: none).
	pos, comp int
	lr        *loopRule // a condition's rule
	r         *rule     // the rule of a total, item, sequence, NPI or format
}

// Kinds of feed, in the order feedRules reads them.
const (
	feedCond = iota
	feedTotal
	feedItem
	feedSeq
	feedFormat
)

// compileFeeds makes s.feeds of s's rule lists (after every change to them).
func (s *Segment) compileFeeds() {
	s.feeds = s.feeds[:0]
	for _, lr := range s.conds {
		s.feeds = append(s.feeds, feed{kind: feedCond, pos: lr.condPos, comp: lr.cond2, lr: lr, empty: lr.testValue(nil)})
	}
	for _, it := range s.sumTotals {
		s.feeds = append(s.feeds, feed{kind: feedTotal, pos: it.pos, r: it.rule})
	}
	for _, it := range s.sumItems {
		s.feeds = append(s.feeds, feed{kind: feedItem, pos: it.pos, r: it.rule, minus: it.minus})
	}
	for _, it := range s.seqItems {
		s.feeds = append(s.feeds, feed{kind: feedSeq, pos: it.pos, r: it.rule})
	}
	for _, r := range s.npi {
		s.feeds = append(s.feeds, feed{kind: feedFormat, pos: r.whenPos, r: r})
	}
	s.ruleWork = len(s.feeds) > 0
}

// feedRules is applyRules for a segment some rule reads (s.feeds): each
// feed's element read as fields.el does, written out here (el is not
// inlined), then what the feed does with it.
func (v *Validator) feedRules(seg *x12.Segment, s *Segment) {
	f := &v.f
	for i := range s.feeds {
		fd := &s.feeds[i]
		var val []byte
		if p := fd.pos; p <= f.n {
			sp := f.span[p&maxFields]
			val = f.raw[sp&0xffff : sp>>16]
		} else {
			val = f.elSlow(p)
		}
		switch fd.kind {
		case feedCond:
			// The conditions on s of the rules of the loop instance it
			// is in: s may hold other loops' rules, as a shared loop's
			// segment is one node.
			cr, top := fd.lr, v.top()
			if cr.loop != top.loop {
				continue
			}
			if fd.comp > 0 && len(val) > 0 {
				val = nthComponent(val, f.csep, fd.comp)
			}
			met := fd.empty
			if len(val) > 0 {
				met = cr.testValue(val)
			}
			if met {
				top.cond |= cr.bit
			}
			top.seen |= cr.bit
		case feedTotal:
			if v.opts.SkipBusiness {
				continue
			}
			if fr, lr := v.frameOf(fd.r); fr != nil {
				ss := &fr.sums[lr.sumIndex]
				ss.total, ss.hasTotal = amount(val)
				ss.pos, ss.off = v.pos, seg.Offset()
			}
		case feedItem:
			if v.opts.SkipBusiness {
				continue
			}
			fr, lr := v.frameOf(fd.r)
			if fr == nil {
				continue
			}
			n, ok := amountComp(val, v.d.Component)
			if !ok {
				continue
			}
			ss := &fr.sums[lr.sumIndex]
			if fd.minus {
				ss.sum -= n
			} else {
				ss.sum += n
			}
		case feedSeq:
			fr, lr := v.frameOf(fd.r)
			if fr == nil {
				continue
			}
			ss := &fr.sums[lr.sumIndex]
			ss.sum++
			if n := digits(val); len(val) > 9 || n < 0 || int64(n) != ss.sum {
				v.checkSequence(s, fd, ss, val)
			}
		case feedFormat:
			// The rule's condition first, here: most segments an NPI
			// rule reads (NM1) do not carry an NPI.
			if r := fd.r; r.whenAbsent && len(val) == 0 || !r.whenAbsent && r.when.has(val) {
				v.checkFormat(s, r, !v.opts.SkipBusiness && !v.opts.SkipNPI)
			}
		}
	}
}

// checkSequence is feedRules's sequence check (LX: the n-th segment of the
// loop instance must say n; ss.sum is n) for a value that is not n in
// at most nine digits. After a wrong number the count follows the value
// sent, so one slip is reported once.
func (v *Validator) checkSequence(s *Segment, fd *feed, ss *sumState, val []byte) {
	n := -1
	if len(val) <= 9 {
		n = digits(val) // the common case, without strconv
	}
	if n < 0 {
		var err error
		if n, err = strconv.Atoi(string(val)); err != nil || len(val) == 0 {
			return // the element check reports a missing or non-numeric value
		}
	}
	if int64(n) != ss.sum {
		de := ""
		if fd.pos <= len(s.Elements) {
			de = s.Elements[fd.pos-1].DE
		}
		v.elementFinding(CodeSequence, "7", fd.pos, 0, 0, de, val,
			fmt.Sprintf("%s%02d %s should be %d: %s", s.ID, fd.pos, clip(string(val)), ss.sum, fd.r.Message))
		ss.sum = int64(n)
	}
}

// checkFormat applies an npi or format rule bound to a segment whose
// condition holds (feedRules tests it); an npi rule only when npi is true
// (business rules on, NPI check not skipped).
func (v *Validator) checkFormat(s *Segment, r *rule, npi bool) {
	if (r.pattern == nil && !npi) || (r.pattern != nil && v.opts.SkipElements) {
		return
	}
	id := v.f.el(r.npiPos)
	if len(id) == 0 {
		return
	}
	de := ""
	if r.npiPos <= len(s.Elements) {
		de = s.Elements[r.npiPos-1].DE
	}
	switch {
	case r.pattern != nil:
		if !r.pattern.Match(id) {
			v.elementFinding(CodePattern, "I12", r.npiPos, 0, 0, de, id,
				fmt.Sprintf("%s%02d %q: %s", s.ID, r.npiPos, clip(string(id)), r.Message))
		}
	case !NPICheckDigitOK(string(id)):
		v.elementFinding(CodeNPI, "I12", r.npiPos, 0, 0, de, id,
			fmt.Sprintf("%s%02d %s: %s", s.ID, r.npiPos, clip(string(id)), r.Message))
	case id[0] != '1' && id[0] != '2':
		// The check digit is right; only the registry's numbering
		// practice is not followed, which no guide rule requires.
		v.elementFindingSev(x12.Warning, CodeNPIPrefix, "", r.npiPos, 0, 0, de, id,
			fmt.Sprintf("%s%02d %s has a correct NPI check digit but does not start with 1 or 2, as every NPI the NPPES registry issues does; check it is an NPI", s.ID, r.npiPos, clip(string(id))))
	}
}

// compOne returns the first component: PLB adjustment amounts follow a
// composite, but the amounts themselves are simple.
func compOne(b []byte, sep byte) []byte {
	if j := indexByte(b, sep); j >= 0 {
		return b[:j]
	}
	return b
}

// placeRule sets r.at and the levels of its loop rules lrs when each of
// their loops sits at one level of the tree under root (a loop may be
// shared by several parents) and none inside another: then at most one
// open loop instance carries r, and it is the frame at its loop's level.
func placeRule(root *Loop, r *rule, lrs []*loopRule) {
	levels := map[*Loop]int{}
	ok := true
	var visit func(l *Loop, level int, inside bool)
	visit = func(l *Loop, level int, inside bool) {
		if !ok || level > 64 {
			ok = false // a deeper tree than guides have: left to ruleFrame
			return
		}
		carries := false
		for _, lr := range lrs {
			carries = carries || lr.loop == l
		}
		if carries {
			if lv, seen := levels[l]; inside || seen && lv != level {
				ok = false
				return
			}
			levels[l] = level
		}
		for _, c := range l.Children {
			if c.Loop != nil {
				visit(c.Loop, level+1, inside || carries)
			}
		}
	}
	visit(root, 0, false)
	if !ok || len(lrs) == 0 {
		return
	}
	for _, lr := range lrs {
		lr.level = levels[lr.loop]
	}
	r.at = lrs
}

// frameOf is ruleFrame: for a rule placed by placeRule, one look at the
// frame at each of its loops' levels.
func (v *Validator) frameOf(r *rule) (*frame, *loopRule) {
	if r.at == nil {
		return v.ruleFrame(r)
	}
	for _, lr := range r.at {
		if d := lr.level; d < v.depth && v.stack[d].loop == lr.loop {
			return &v.stack[d], lr
		}
	}
	return nil, nil
}

// ruleFrame finds the innermost open loop instance carrying rule r.
func (v *Validator) ruleFrame(r *rule) (*frame, *loopRule) {
	for d := v.depth - 1; d >= 0; d-- {
		f := &v.stack[d]
		for _, lr := range f.loop.rules {
			if lr.r == r {
				return f, lr
			}
		}
	}
	return nil, nil
}

func (lr *loopRule) testValue(val []byte) bool {
	switch {
	case lr.present:
		return len(val) > 0
	case lr.in != nil:
		return lr.in.has(val)
	case lr.notIn != nil:
		return !lr.notIn.has(val)
	}
	return true
}

// closeRules evaluates the rules of a loop instance as it ends.
func (v *Validator) closeRules(f *frame) {
	for _, nt := range f.loop.nested {
		if f.counts[nt.lr.targetIdx] == 0 {
			continue
		}
		for d := v.depth - 2; d >= 0; d-- {
			if v.stack[d].loop == nt.ruleLoop {
				v.stack[d].hits |= nt.lr.bit
				break
			}
		}
	}
	for _, lr := range f.loop.rules {
		if lr.r.Business && v.opts.SkipBusiness {
			continue
		}
		if lr.r.Kind == "sum" {
			v.closeSum(f, lr)
			continue
		}
		if lr.r.Kind == "sequence" {
			continue // checked segment by segment
		}
		if lr.hasCnd {
			met := f.cond&lr.bit != 0
			if f.seen&lr.bit == 0 {
				met = lr.testValue(nil)
			}
			if !met {
				continue
			}
		}
		present := f.hits&lr.bit != 0
		if lr.targetOwner == f.loop {
			present = f.counts[lr.targetIdx] > 0
		}
		target := lr.targetOwner.Children[lr.targetIdx]
		loopID := f.loop.ID
		if f.loop == v.g.root {
			loopID = ""
		}
		tid := target.trigger().ID
		switch {
		case lr.r.Kind == "require" && !present:
			v.emit(x12.Finding{Severity: x12.Error, Code: CodeRuleMissing, Offset: f.startOff, Position: f.startPos,
				SegmentID: tid, LoopID: loopID, IK3: "I6",
				Message: fmt.Sprintf("%s is missing: %s", lr.targetName, lr.r.Message)})
		case lr.r.Kind == "forbid" && present:
			v.emit(x12.Finding{Severity: x12.Error, Code: CodeRuleForbidden, Offset: f.startOff, Position: f.startPos,
				SegmentID: tid, LoopID: loopID, IK3: "I9",
				Message: fmt.Sprintf("%s must not be present: %s", lr.targetName, lr.r.Message)})
		}
	}
}

func (v *Validator) closeSum(f *frame, lr *loopRule) {
	ss := &f.sums[lr.sumIndex]
	if !ss.hasTotal || ss.total == ss.sum {
		return
	}
	e := lr.totalSeg.Elements[lr.totalPos-1]
	loopID := f.loop.ID
	if f.loop == v.g.root {
		loopID = ""
	}
	v.emit(x12.Finding{Severity: x12.Error, Code: CodeBalance, Offset: ss.off, Position: ss.pos,
		SegmentID: lr.totalSeg.ID, LoopID: loopID, Element: lr.totalPos, ElementRef: e.DE,
		Value: formatAmount(ss.total), IK4: "I12",
		Message: fmt.Sprintf("%s: %s%02d is %s but the items add up to %s", lr.r.Message, lr.totalSeg.ID, lr.totalPos,
			formatAmount(ss.total), formatAmount(ss.sum))})
}

// amount parses an X12 decimal into millionths, without floating point:
// the digits before the point in one loop, at most six after it in
// another (later ones are dropped, as long as they are digits).
func amount(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	n, i := digitRun(b, 0, 0)
	frac := 0
	if i < len(b) {
		if b[i] != '.' {
			return 0, false
		}
		for _, c := range b[i+1:] {
			d := c - '0'
			if d > 9 {
				return 0, false
			}
			if frac < 6 {
				n = n*10 + int64(d)
				frac++
			}
		}
	}
	n *= pow10[6-frac]
	if neg {
		n = -n
	}
	return n, true
}

// amountComp is amount(compOne(b, sep)) in one loop over the bytes (a
// sum item's amount, the feedRules path of every SV1 of an 837P): digits,
// at most one point, up to a component separator. What it does not read
// the same way (a sign, more than six decimals, more than 16 bytes, a
// separator that is a digit, a point or a minus) goes to amount.
func amountComp(b []byte, sep byte) (int64, bool) {
	if len(b) == 0 || len(b) > 16 || b[0] == '-' || sep-'0' <= 9 || sep == '.' || sep == '-' {
		return amount(compOne(b, sep))
	}
	n, i := digitRun(b, 0, 0)
	frac := 0
	if i < len(b) && b[i] == '.' {
		var j int
		n, j = digitRun(b, i+1, n)
		frac, i = j-i-1, j
	}
	if i < len(b) && (b[i] != sep || i == 0) {
		return 0, false // not a number, or an empty first component
	}
	if frac > 6 {
		return amount(b[:i])
	}
	return n * pow10[6-frac], true
}

// digitRun reads the digits of b from i on into n (n*10 + each) and
// returns n and the index of the first byte that is not a digit.
func digitRun(b []byte, i int, n int64) (int64, int) {
	for ; i < len(b); i++ {
		d := b[i] - '0'
		if d > 9 {
			break
		}
		n = n*10 + int64(d)
	}
	return n, i
}

// pow10[i] is 10 to the i.
var pow10 = [...]int64{1, 10, 100, 1000, 10000, 100000, 1000000}

// formatAmount renders millionths as a plain decimal ("150", "12.5").
func formatAmount(n int64) string {
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	s := fmt.Sprintf("%d.%06d", n/1000000, n%1000000)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return sign + s
}

// ValidNPI reports whether s is an NPI as the NPPES registry issues them:
// 10 digits starting with 1 or 2, with a correct check digit.
func ValidNPI(s string) bool {
	return NPICheckDigitOK(s) && (s[0] == '1' || s[0] == '2')
}

// NPICheckDigitOK reports whether s is 10 digits whose last is the check
// digit of the first nine: Luhn over them with the 80840 prefix, which adds
// 24. It is the rule the guides give; the first digit is not part of it.
func NPICheckDigitOK(s string) bool {
	if len(s) != 10 {
		return false
	}
	sum := 24
	for i := 8; i >= 0; i-- {
		c := s[i]
		if c < '0' || c > '9' {
			return false
		}
		d := int(c - '0')
		if (8-i)%2 == 0 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	if s[9] < '0' || s[9] > '9' {
		return false
	}
	return (10-sum%10)%10 == int(s[9]-'0')
}
