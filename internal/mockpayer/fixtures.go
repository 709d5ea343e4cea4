package mockpayer

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/clearhouse/clearhouse/x12"
)

// The fixtures: one JSON file per payer under fixtures/. Each file holds the
// payer's profile (2100A name, contacts, trace originator), named blocks of
// 271 segments, and the scenarios: the published mock request, and the 271
// content the payer answers with. Segment lines use the default delimiters
// ("*" element, "^" repetition, ":" component), which are also the
// delimiters of every 271 the mock writes, so a line is written as is.
//
//go:embed fixtures/*.json
var fixtureFS embed.FS

// fixtureFile is the JSON shape of one fixtures/*.json file.
type fixtureFile struct {
	Payer     payerProfile        `json:"payer"`
	Notes     string              `json:"notes,omitempty"`
	Blocks    map[string][]string `json:"blocks"`
	Scenarios []scenarioFile      `json:"scenarios"`
}

// payerProfile is what the mock payer says about itself in the 271.
type payerProfile struct {
	ID              string   `json:"id"`              // 2100A NM109, ISA06, GS02
	Name            string   `json:"name"`            // 2100A NM103
	TraceOriginator string   `json:"traceOriginator"` // TRN03 of the payer's own trace (10 characters)
	Contacts        []string `json:"contacts"`        // 2100A PER segments

	compiled []segmentTemplate // Contacts, checked
}

type scenarioFile struct {
	Name  string `json:"name"`
	Row   int    `json:"row"`
	Title string `json:"title"`
	// Request is the published mock request, in the eligibility request
	// JSON shape. Its identifying values are what a 270 must carry.
	Request MockRequest `json:"request"`
	// Optional lists values that may be absent from the 270 but must match
	// when present ("subscriber.firstName" for the MBI lookup).
	Optional map[string]string `json:"optional,omitempty"`
	// The 271 content; "@name" splices a block.
	Subscriber         []string `json:"subscriber,omitempty"`
	SubscriberBenefits []string `json:"subscriberBenefits,omitempty"`
	Dependent          []string `json:"dependent,omitempty"`
	DependentBenefits  []string `json:"dependentBenefits,omitempty"`
	Reject             *reject  `json:"reject,omitempty"`
}

// reject makes the scenario a payer rejection: the 271 stops after the
// loop that carries the AAA.
type reject struct {
	Loop string `json:"loop"` // "2100A", "2100B" or "2100C"
	AAA  string `json:"aaa"`  // the AAA segment line
}

// scenario is a loaded, checked fixture.
type scenario struct {
	name, title string
	row         int
	payer       *payerProfile
	request     MockRequest
	match       matchSpec

	subscriber, subscriberBenefits []segmentTemplate
	dependent, dependentBenefits   []segmentTemplate
	reject                         *reject
	rejectAAA                      segmentTemplate

	// simulated names the simulator scenario that built this answer; the
	// payer's TRN*1 carries it as TRN04, so the check records it.
	simulated string
}

// segmentTemplate is one 271 segment line. Most lines are constant; lines
// with placeholders ({YEAR}, ...) are completed per exchange.
type segmentTemplate struct {
	id      string
	line    string
	raw     []byte // line, for Writer.WriteRaw
	dynamic bool
}

// placeholders a segment line may contain; all expand to digits.
var placeholders = []string{"{YEAR}", "{PREVYEAR}", "{NEXTYEAR}", "{TODAY}"}

var (
	loadOnce sync.Once
	loaded   []*scenario
	loadErr  error
)

// fixtures returns the embedded scenarios, loaded and checked once.
func fixtures() ([]*scenario, error) {
	loadOnce.Do(func() { loaded, loadErr = loadFixtures(fixtureFS, "fixtures") })
	return loaded, loadErr
}

func loadFixtures(fsys fs.FS, dir string) ([]*scenario, error) {
	files, err := fs.Glob(fsys, path.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []*scenario
	names := map[string]bool{}
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		scs, err := parseFixtureFile(data)
		if err != nil {
			return nil, fmt.Errorf("mockpayer: %s: %w", f, err)
		}
		for _, s := range scs {
			if names[s.name] {
				return nil, fmt.Errorf("mockpayer: %s: scenario name %q used twice", f, s.name)
			}
			names[s.name] = true
		}
		out = append(out, scs...)
	}
	slices.SortFunc(out, func(a, b *scenario) int { return a.row - b.row })
	return out, nil
}

func parseFixtureFile(data []byte) ([]*scenario, error) {
	var ff fixtureFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ff); err != nil {
		return nil, err
	}
	p := &ff.Payer
	if p.ID == "" || p.Name == "" || len(p.TraceOriginator) != 10 {
		return nil, fmt.Errorf("payer needs id, name and a 10-character traceOriginator")
	}
	if len(p.Contacts) > 3 {
		return nil, fmt.Errorf("payer %s: at most 3 PER contacts fit 2100A", p.ID)
	}
	var err error
	if p.compiled, err = compileLines(p.Contacts, nil); err != nil {
		return nil, fmt.Errorf("payer %s contacts: %w", p.ID, err)
	}
	var out []*scenario
	for _, sf := range ff.Scenarios {
		s, err := compileScenario(p, ff.Blocks, sf)
		if err != nil {
			return nil, fmt.Errorf("scenario %q: %w", sf.Name, err)
		}
		out = append(out, s)
	}
	return out, nil
}

func compileScenario(p *payerProfile, blocks map[string][]string, sf scenarioFile) (*scenario, error) {
	if sf.Name == "" || sf.Title == "" || sf.Row <= 0 {
		return nil, fmt.Errorf("needs a name, a title and the row of the published mock table")
	}
	s := &scenario{name: sf.Name, title: sf.Title, row: sf.Row, payer: p, request: sf.Request, reject: sf.Reject}
	var err error
	if s.match, err = newMatchSpec(sf.Request, sf.Optional); err != nil {
		return nil, err
	}
	parts := []struct {
		dst   *[]segmentTemplate
		lines []string
		what  string
	}{
		{&s.subscriber, sf.Subscriber, "subscriber"},
		{&s.subscriberBenefits, sf.SubscriberBenefits, "subscriberBenefits"},
		{&s.dependent, sf.Dependent, "dependent"},
		{&s.dependentBenefits, sf.DependentBenefits, "dependentBenefits"},
	}
	for _, part := range parts {
		if *part.dst, err = compileLines(part.lines, blocks); err != nil {
			return nil, fmt.Errorf("%s: %w", part.what, err)
		}
	}
	return s, s.check()
}

// templates lists every line the scenario can write.
func (s *scenario) templates() []segmentTemplate {
	all := slices.Concat(s.payer.compiled, s.subscriber, s.subscriberBenefits, s.dependent, s.dependentBenefits)
	if s.reject != nil {
		all = append(all, s.rejectAAA)
	}
	return all
}

// check enforces the loop shapes the 271 writer relies on.
func (s *scenario) check() error {
	if s.reject != nil {
		switch s.reject.Loop {
		case "2100A", "2100B", "2100C":
		default:
			return fmt.Errorf("reject loop %q is not 2100A, 2100B or 2100C", s.reject.Loop)
		}
		aaa, err := compileLines([]string{s.reject.AAA}, nil)
		if err != nil || aaa[0].id != "AAA" {
			return fmt.Errorf("reject.aaa %q is not an AAA segment", s.reject.AAA)
		}
		s.rejectAAA = aaa[0]
		if len(s.subscriber)+len(s.dependent)+len(s.subscriberBenefits)+len(s.dependentBenefits) > 0 {
			return fmt.Errorf("a rejection echoes the request; it has no subscriber or benefit lines")
		}
		return nil
	}
	if len(s.subscriber) == 0 || s.subscriber[0].id != "NM1" || !strings.HasPrefix(s.subscriber[0].line, "NM1*IL*") {
		return fmt.Errorf("subscriber lines must start with NM1*IL")
	}
	if len(s.dependent) > 0 {
		if !strings.HasPrefix(s.dependent[0].line, "NM1*03*") {
			return fmt.Errorf("dependent lines must start with NM1*03")
		}
		if len(s.match.dependent) == 0 {
			return fmt.Errorf("dependent lines without a dependent in the request")
		}
	}
	if len(s.subscriberBenefits)+len(s.dependentBenefits) == 0 {
		return fmt.Errorf("no benefit lines")
	}
	for _, list := range [][]segmentTemplate{s.subscriberBenefits, s.dependentBenefits} {
		if len(list) > 0 && list[0].id != "EB" {
			return fmt.Errorf("benefit lines must start with EB")
		}
	}
	return nil
}

// compileLines expands "@block" references and checks every line: it must
// be a segment the x12 Writer writes back unchanged (so it holds no stray
// delimiter and no trailing empty element).
func compileLines(lines []string, blocks map[string][]string) ([]segmentTemplate, error) {
	var out []segmentTemplate
	for _, line := range lines {
		if name, ok := strings.CutPrefix(line, "@"); ok {
			block, found := blocks[name]
			if !found {
				return nil, fmt.Errorf("unknown block %q", name)
			}
			sub, err := compileLines(block, nil)
			if err != nil {
				return nil, fmt.Errorf("block %q: %w", name, err)
			}
			out = append(out, sub...)
			continue
		}
		t, err := compileLine(line)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func compileLine(line string) (segmentTemplate, error) {
	dynamic := false
	sample := line
	for _, p := range placeholders {
		if strings.Contains(sample, p) {
			dynamic = true
			sample = strings.ReplaceAll(sample, p, "2000")
		}
	}
	id, _, _ := strings.Cut(line, "*")
	if err := checkStructure(id, sample); err != nil {
		return segmentTemplate{}, fmt.Errorf("line %q: %w", line, err)
	}
	var buf bytes.Buffer
	w := x12.NewWriter(&buf, x12.DefaultDelimiters)
	if err := w.WriteSegmentFields(id, templateFields(sample)...); err != nil {
		return segmentTemplate{}, fmt.Errorf("line %q: %w", line, err)
	}
	if err := w.Flush(); err != nil {
		return segmentTemplate{}, err
	}
	if got := strings.TrimSuffix(buf.String(), "~"); got != sample {
		return segmentTemplate{}, fmt.Errorf("line %q is not in canonical form (written back as %q)", line, got)
	}
	return segmentTemplate{id: id, line: line, raw: []byte(line), dynamic: dynamic}, nil
}

// The 271 elements that may hold components or repetitions. Anywhere
// else a ":" or "^" in a fixture line would be data that readers split.
var (
	compositeElements = map[string][]int{"EB": {13, 14}, "REF": {4}}
	repeatedElements  = map[string][]int{"EB": {3}}
)

func checkStructure(id, line string) error {
	for i, e := range strings.Split(line, "*")[1:] {
		n := i + 1
		if strings.Contains(e, ":") && !slices.Contains(compositeElements[id], n) {
			return fmt.Errorf("%s%02d holds %q, the component separator; it is not a composite element", id, n, ":")
		}
		if strings.Contains(e, "^") && !slices.Contains(repeatedElements[id], n) {
			return fmt.Errorf("%s%02d holds %q, the repetition separator; the element does not repeat", id, n, "^")
		}
	}
	return nil
}

// templateFields splits a line's elements into writer fields, honouring
// repetitions ("^") and components (":").
func templateFields(line string) []x12.Field {
	elems := strings.Split(line, "*")[1:]
	fields := make([]x12.Field, len(elems))
	for i, e := range elems {
		reps := strings.Split(e, "^")
		if len(reps) == 1 {
			fields[i] = x12.Composite(strings.Split(e, ":")...)
			continue
		}
		rf := make([]x12.Field, len(reps))
		for j, r := range reps {
			rf[j] = x12.Composite(strings.Split(r, ":")...)
		}
		fields[i] = x12.Repeated(rf...)
	}
	return fields
}
