package payers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
)

// The directory file (serve --payer-directory, clearhouse payers import and
// export) is the operator's payer data in the hosted Payers API's shapes:
// JSON as GET /2024-04-01/payers answers it ({"items": [PayerRecord…]}),
// with this server's "enrollments" beside the items, or CSV as GET
// /2024-04-01/payers/csv answers it. It is applied over the shipped
// directory: a record whose primaryPayerId or stediId names a shipped payer
// replaces that payer's names, aliases, coverage types, operating states
// and transaction support; any other record adds a payer. The --payers
// file's routes are applied after it (a routed transaction is at least
// SUPPORTED).

// Bounds of a directory file.
const (
	MaxDirectoryFileBytes = 64 << 20
	MaxDirectoryRecords   = 100_000
	maxListItems          = 500
	maxTextLen            = 200
	maxIDLen              = 50
	maxFileProblems       = 100
)

// Enrollment records that an account is enrolled with a payer for some
// transaction types (transactionSupport keys): the payer then takes its
// ENROLLMENT_REQUIRED transactions from that account. It is the
// operator's record, kept in the JSON directory file only.
type Enrollment struct {
	PayerID      string   `json:"payerId"`
	AccountID    string   `json:"accountId"`
	Transactions []string `json:"transactions"`
}

// DirectoryFile is a parsed directory file.
type DirectoryFile struct {
	Records     []FileRecord
	Enrollments []FileEnrollment
}

// FileRecord is one payer record and the line it starts on.
type FileRecord struct {
	Line   int
	Record Record
}

// FileEnrollment is one enrollment and the line it starts on.
type FileEnrollment struct {
	Line int
	Enrollment
}

// FileProblem is one mistake in a directory file.
type FileProblem struct {
	Line    int
	Field   string
	Message string
}

// FileError lists every problem of a directory file (at most
// maxFileProblems of them, More counting the rest).
type FileError struct {
	Name     string
	Problems []FileProblem
	More     int
}

func (e *FileError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d problem(s)", e.Name, len(e.Problems)+e.More)
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "\n  line %d: %s: %s", p.Line, p.Field, p.Message)
	}
	if e.More > 0 {
		fmt.Fprintf(&b, "\n  and %d more", e.More)
	}
	return b.String()
}

// problems collects FileProblems.
type problems struct {
	list []FileProblem
	more int
}

func (ps *problems) add(line int, field, format string, args ...any) {
	if len(ps.list) == maxFileProblems {
		ps.more++
		return
	}
	ps.list = append(ps.list, FileProblem{Line: line, Field: field, Message: fmt.Sprintf(format, args...)})
}

func (ps *problems) err(name string) error {
	if len(ps.list) == 0 {
		return nil
	}
	slices.SortStableFunc(ps.list, func(a, b FileProblem) int { return a.Line - b.Line })
	return &FileError{Name: name, Problems: ps.list, More: ps.more}
}

// ParseDirectoryFile reads a directory file, JSON or CSV (JSON when the
// first character is '{'), checks every record and enrollment, and
// reports all problems at once with their line numbers. name is the file
// name used in the error.
func ParseDirectoryFile(name string, data []byte) (*DirectoryFile, error) {
	if len(data) > MaxDirectoryFileBytes {
		return nil, fmt.Errorf("%s: %d bytes; a directory file has at most %d", name, len(data), MaxDirectoryFileBytes)
	}
	var (
		f   *DirectoryFile
		ps  problems
		err error
	)
	if trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(trimmed) > 0 && trimmed[0] == '{' {
		f, err = parseJSONFile(data, &ps)
	} else {
		f, err = parseCSVFile(data, &ps)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	checkFile(f, &ps)
	if err := ps.err(name); err != nil {
		return nil, err
	}
	return f, nil
}

// lineAt is the line of data's byte offset.
func lineAt(data []byte, off int64) int { return bytes.Count(data[:off], []byte("\n")) + 1 }

// parseJSONFile reads {"items": [...], "enrollments": [...]} item by item,
// so each problem names its item's line.
func parseJSONFile(data []byte, ps *problems) (*DirectoryFile, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	f := &DirectoryFile{}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("line 1: a JSON directory file is an object {\"items\": [payer records], \"enrollments\": [...]}")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", lineAt(data, dec.InputOffset()), err)
		}
		key, _ := tok.(string)
		switch key {
		case "items", "enrollments":
		case "nextPageToken":
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, fmt.Errorf("line %d: %w", lineAt(data, dec.InputOffset()), err)
			}
			continue
		default:
			return nil, fmt.Errorf("line %d: unknown key %q; a directory file has \"items\" and \"enrollments\"", lineAt(data, dec.InputOffset()), key)
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
			return nil, fmt.Errorf("line %d: %q must be an array", lineAt(data, dec.InputOffset()), key)
		}
		for dec.More() {
			line := lineAt(data, dec.InputOffset()+int64(countSpace(data[dec.InputOffset():])))
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			if len(f.Records)+len(f.Enrollments) >= MaxDirectoryRecords {
				return nil, fmt.Errorf("line %d: more than %d entries", line, MaxDirectoryRecords)
			}
			strict := json.NewDecoder(bytes.NewReader(raw))
			strict.DisallowUnknownFields()
			if key == "items" {
				var r struct {
					Record
					AvatarURL string `json:"avatarUrl"` // the hosted logo; not kept
				}
				if err := strict.Decode(&r); err != nil {
					ps.add(line, "items", "%s", jsonProblem(err))
					continue
				}
				f.Records = append(f.Records, FileRecord{Line: line, Record: r.Record})
			} else {
				var e Enrollment
				if err := strict.Decode(&e); err != nil {
					ps.add(line, "enrollments", "%s", jsonProblem(err))
					continue
				}
				f.Enrollments = append(f.Enrollments, FileEnrollment{Line: line, Enrollment: e})
			}
		}
		if _, err := dec.Token(); err != nil {
			return nil, fmt.Errorf("line %d: %w", lineAt(data, dec.InputOffset()), err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("line %d: %w", lineAt(data, dec.InputOffset()), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("line %d: text after the directory object", lineAt(data, dec.InputOffset()))
	}
	return f, nil
}

// countSpace counts the separators before the next JSON value.
func countSpace(b []byte) int {
	n := 0
	for n < len(b) && (b[n] == ' ' || b[n] == '\t' || b[n] == '\r' || b[n] == '\n' || b[n] == ',') {
		n++
	}
	return n
}

func jsonProblem(err error) string {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "json: ")
	return msg
}

var (
	idPattern  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	einPattern = regexp.MustCompile(`^[0-9]{2}-[0-9]{7}$`)
	// The hosted API's enums.
	supportValues       = []string{Supported, NotSupported, EnrollmentRequired}
	coverageTypes       = []string{"medical", "dental", "vision"}
	processTypes        = []string{"ONE_CLICK", "MULTI_STEP"}
	processTimeframes   = []string{"INSTANT", "HOURS", "DAYS", "WEEKS"}
	effectiveDateValues = []string{Supported, NotSupported}
	aggregationTypes    = []string{"NPI", "TIN"}
	operatingStates     = strings.Fields("AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR VI GU AS MP NATIONAL")
)

// OperatingStateCodes are the operatingStates values (US states,
// territories, NATIONAL).
func OperatingStateCodes() []string { return slices.Clone(operatingStates) }

// CoverageTypes are the coverageTypes values.
func CoverageTypes() []string { return slices.Clone(coverageTypes) }

// checkFile checks every record and enrollment, and that no id names two
// records.
func checkFile(f *DirectoryFile, ps *problems) {
	seen := map[string]int{} // normalized id → line of the record that has it
	for _, fr := range f.Records {
		checkRecord(fr, ps)
		r := fr.Record
		ids := slices.Compact(slices.Sorted(func(yield func(string) bool) {
			for _, id := range append([]string{r.StediID, r.PrimaryPayerID}, r.Aliases...) {
				if id != "" && !yield(normalizeID(id)) {
					return
				}
			}
		}))
		var dups []string
		first := 0
		for _, id := range ids {
			if line, dup := seen[id]; dup {
				dups, first = append(dups, id), line
				continue
			}
			seen[id] = fr.Line
		}
		if len(dups) > 0 {
			ps.add(fr.Line, "aliases", "%s already name(s) the payer on line %d; an id or alias names one payer", strings.Join(dups, ", "), first)
		}
	}
	for _, fe := range f.Enrollments {
		e := fe.Enrollment
		if !idPattern.MatchString(e.PayerID) || len(e.PayerID) > maxIDLen {
			ps.add(fe.Line, "payerId", "%q is not a payer id (letters, digits, '.', '_' or '-', at most %d)", e.PayerID, maxIDLen)
		}
		if strings.TrimSpace(e.AccountID) == "" || len(e.AccountID) > 64 {
			ps.add(fe.Line, "accountId", "is required: the account id the enrollment belongs to (clearhouse keys list shows it), at most 64 characters")
		}
		if len(e.Transactions) == 0 {
			ps.add(fe.Line, "transactions", "list the transaction types the account is enrolled for, such as [\"eligibilityCheck\"]")
		}
		for _, k := range e.Transactions {
			if t, ok := txTypeByKey(k); !ok || t.Code == "" {
				ps.add(fe.Line, "transactions", "%q is not a transaction type this server exchanges (%s)", k, strings.Join(exchangedKeys(), ", "))
			}
		}
	}
}

func exchangedKeys() []string {
	var out []string
	for _, t := range txTypes {
		if t.Code != "" {
			out = append(out, t.Key)
		}
	}
	return out
}

// checkRecord checks one record against the hosted API's rules.
func checkRecord(fr FileRecord, ps *problems) {
	r, line := fr.Record, fr.Line
	checkID := func(field, v string, required bool) {
		switch {
		case v == "" && required:
			ps.add(line, field, "is required")
		case v != "" && (!idPattern.MatchString(v) || len(v) > maxIDLen):
			ps.add(line, field, "%q is not a payer id (letters, digits, '.', '_' or '-', at most %d)", truncateText(v), maxIDLen)
		}
	}
	checkID("stediId", r.StediID, true)
	checkID("primaryPayerId", r.PrimaryPayerID, true)
	if strings.TrimSpace(r.DisplayName) == "" || len(r.DisplayName) > maxTextLen {
		ps.add(line, "displayName", "is required, at most %d characters", maxTextLen)
	}
	checkList := func(field string, list []string, check func(string) string) {
		if len(list) > maxListItems {
			ps.add(line, field, "has %d entries; at most %d", len(list), maxListItems)
			return
		}
		for i, v := range list {
			if msg := check(v); msg != "" {
				ps.add(line, field, "entry %d %q %s", i+1, truncateText(v), msg)
			}
		}
	}
	checkList("names", r.Names, func(v string) string {
		if strings.TrimSpace(v) == "" || len(v) > maxTextLen {
			return fmt.Sprintf("must be a name of 1 to %d characters", maxTextLen)
		}
		return ""
	})
	checkList("aliases", r.Aliases, func(v string) string {
		if !idPattern.MatchString(v) || len(v) > maxIDLen {
			return "is not a payer id (letters, digits, '.', '_' or '-')"
		}
		return ""
	})
	checkList("coverageTypes", r.CoverageTypes, oneOf(coverageTypes))
	checkList("operatingStates", r.OperatingStates, oneOf(operatingStates))
	checkList("employerIdentificationNumbers", r.EmployerIdentificationNumbers, func(v string) string {
		if !einPattern.MatchString(v) {
			return "is not an EIN in the form 12-3456789"
		}
		return ""
	})
	if len(r.ParentPayerGroupID) > maxIDLen {
		ps.add(line, "parentPayerGroupId", "has at most %d characters", maxIDLen)
	}
	if r.URLs != nil && r.URLs.Website != "" && (len(r.URLs.Website) > 2000 ||
		!(strings.HasPrefix(r.URLs.Website, "https://") || strings.HasPrefix(r.URLs.Website, "http://"))) {
		ps.add(line, "urls.website", "%q is not an http(s) URL of at most 2000 characters", truncateText(r.URLs.Website))
	}
	ts := r.TransactionSupport
	for _, t := range txTypes {
		v := ts.Get(t.Key)
		switch {
		case v == "":
			ps.add(line, "transactionSupport."+t.Key, "is missing: one of %s", strings.Join(supportValues, ", "))
		case !slices.Contains(supportValues, v):
			ps.add(line, "transactionSupport."+t.Key, "%q is not one of %s", truncateText(v), strings.Join(supportValues, ", "))
		}
	}
	if ts.ClaimSubmission != "" && ts.ClaimSubmission != ts.ProfessionalClaimSubmission {
		ps.add(line, "transactionSupport.claimSubmission", "is %s but professionalClaimSubmission is %s; the deprecated claimSubmission must say the same or be left out",
			ts.ClaimSubmission, ts.ProfessionalClaimSubmission)
	}
	if r.Enrollment == nil {
		return
	}
	for _, key := range slices.Sorted(mapKeysOf(r.Enrollment.TransactionEnrollmentProcesses)) {
		proc := r.Enrollment.TransactionEnrollmentProcesses[key]
		field := "enrollment.transactionEnrollmentProcesses." + key
		if processType(key) == nil {
			ps.add(line, field, "is not a transaction type of the enrollment processes")
			continue
		}
		if proc.Type != "" && !slices.Contains(processTypes, proc.Type) {
			ps.add(line, field+".type", "%q is not one of %s", truncateText(proc.Type), strings.Join(processTypes, ", "))
		}
		if proc.Timeframe != "" && !slices.Contains(processTimeframes, proc.Timeframe) {
			ps.add(line, field+".timeframe", "%q is not one of %s", truncateText(proc.Timeframe), strings.Join(processTimeframes, ", "))
		}
		if proc.RequestedEffectiveDate != "" && !slices.Contains(effectiveDateValues, proc.RequestedEffectiveDate) {
			ps.add(line, field+".requestedEffectiveDate", "%q is not one of %s", truncateText(proc.RequestedEffectiveDate), strings.Join(effectiveDateValues, ", "))
		}
		if len(proc.SupportedAggregationPreferences) > 0 && key != "claimPayment" {
			ps.add(line, field+".supportedAggregationPreferences", "is for claimPayment only")
		}
		for _, a := range proc.SupportedAggregationPreferences {
			if !slices.Contains(aggregationTypes, a) {
				ps.add(line, field+".supportedAggregationPreferences", "%q is not one of %s", truncateText(a), strings.Join(aggregationTypes, ", "))
			}
		}
	}
}

func processType(key string) *txType {
	for _, t := range txTypes {
		if t.Process == key {
			return &t
		}
	}
	return nil
}

func mapKeysOf[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func oneOf(allowed []string) func(string) string {
	return func(v string) string {
		if !slices.Contains(allowed, v) {
			return "is not one of " + strings.Join(allowed, ", ")
		}
		return ""
	}
}

// truncateText keeps an echoed value short.
func truncateText(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// WithDirectoryFile returns a new directory: d with the file's records
// applied (see the top of this file) and its enrollments recorded. Every
// problem (an alias naming another payer, an enrollment for an unknown
// payer) is reported at once, with its line.
func (d *Directory) WithDirectoryFile(name string, f *DirectoryFile) (*Directory, error) {
	out := &Directory{payers: make([]Payer, 0, len(d.payers)+len(f.Records)), enrolled: map[string]bool{}}
	for _, p := range d.payers {
		out.payers = append(out.payers, p.clone())
	}
	out.reindex()
	var ps problems
	// Payers are replaced in place and added at the end, the index kept
	// as it goes; the order is restored once, after the last record (a
	// hosted list has tens of thousands).
	for _, fr := range f.Records {
		r := fr.Record
		i, found := out.index[normalizeID(r.PrimaryPayerID)]
		if !found {
			i, found = out.index[normalizeID(r.StediID)]
		}
		p := Payer{ID: r.PrimaryPayerID, DependentPlacement: PlacementDependents}
		if found {
			p = out.payers[i].clone()
		} else {
			i = len(out.payers)
		}
		p.applyRecord(r)
		if err := p.validate(); err != nil {
			ps.add(fr.Line, "stediId", "%s", err.Error())
			continue
		}
		var clash []string
		for _, key := range p.ids() {
			if j, ok := out.index[normalizeID(key)]; ok && j != i {
				clash = append(clash, fmt.Sprintf("%q already names payer %s", key, out.payers[j].ID))
			}
		}
		if len(clash) > 0 {
			ps.add(fr.Line, "aliases", "%s", strings.Join(clash, "; "))
			continue
		}
		if found {
			for _, key := range out.payers[i].ids() {
				delete(out.index, normalizeID(key))
			}
			out.payers[i] = p
		} else {
			out.payers = append(out.payers, p)
		}
		for _, key := range p.ids() {
			out.index[normalizeID(key)] = i
		}
	}
	out.reindex()
	for _, fe := range f.Enrollments {
		id, ok := out.Resolve(fe.PayerID)
		if !ok {
			ps.add(fe.Line, "payerId", "%q names no payer in the directory%s", fe.PayerID, DidYouMean(out.Suggest(fe.PayerID, 3)))
			continue
		}
		for _, k := range fe.Transactions {
			if t, ok := txTypeByKey(k); ok && t.Code != "" {
				out.enrolled[enrollmentKey(id, t.Code, fe.AccountID)] = true
			}
		}
	}
	if err := ps.err(name); err != nil {
		return nil, err
	}
	out.enrollments = slices.Clone(f.Enrollments)
	return out, nil
}

// applyRecord sets what a directory file record says about the payer; its
// routing (connections, dependent placement, member id format, notes) is
// left as it was.
func (p *Payer) applyRecord(r Record) {
	p.StediID = ""
	if !strings.EqualFold(r.StediID, p.ID) {
		p.StediID = r.StediID
	}
	p.Name, p.Names, p.Aliases = r.DisplayName, slices.Clone(r.Names), slices.Clone(r.Aliases)
	p.Coverage, p.OperatingStates = slices.Clone(r.CoverageTypes), slices.Clone(r.OperatingStates)
	p.EmployerIdentificationNumbers, p.ParentPayerGroupID = slices.Clone(r.EmployerIdentificationNumbers), r.ParentPayerGroupID
	p.Website = ""
	if r.URLs != nil {
		p.Website = r.URLs.Website
	}
	p.Enrollment = nil
	if r.Enrollment != nil {
		p.Enrollment = r.Enrollment.clone()
	}
	p.Transactions, p.EnrollmentRequired, p.OtherSupport = nil, nil, nil
	for _, t := range txTypes {
		v := r.TransactionSupport.Get(t.Key)
		switch {
		case t.Code == "" && v != NotSupported:
			if p.OtherSupport == nil {
				p.OtherSupport = map[string]string{}
			}
			p.OtherSupport[t.Key] = v
		case t.Code == "" || v == NotSupported:
		default:
			p.Transactions = append(p.Transactions, t.Code)
			if v == EnrollmentRequired {
				p.EnrollmentRequired = append(p.EnrollmentRequired, t.Code)
			}
		}
	}
	p.imported = true
}

// ReadDirectoryFile reads and parses a directory file, refusing one larger
// than MaxDirectoryFileBytes before reading it whole.
func ReadDirectoryFile(path string) (*DirectoryFile, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, MaxDirectoryFileBytes+1))
	if err != nil {
		return nil, err
	}
	return ParseDirectoryFile(path, data)
}

// Enrollments are the directory file's enrollments, as loaded.
func (d *Directory) Enrollments() []Enrollment {
	out := make([]Enrollment, len(d.enrollments))
	for i, e := range d.enrollments {
		out[i] = e.Enrollment
		out[i].Transactions = slices.Clone(e.Transactions)
	}
	return out
}

// byStediID is the directory in the hosted list's order: by stediId.
func (d *Directory) byStediID() []Record {
	out := make([]Record, len(d.payers))
	for i, p := range d.payers {
		out[i] = p.data()
	}
	slices.SortFunc(out, func(a, b Record) int { return strings.Compare(a.StediID, b.StediID) })
	return out
}

// Records lists every payer as the API shows it, in the hosted list's
// order (by stediId).
func (d *Directory) Records() []Record {
	out := d.byStediID()
	for i := range out {
		out[i].TransactionSupport.CoordinationOfBenefits = NotSupported
		out[i].TransactionSupport.UnsolicitedClaimAttachment = NotSupported
	}
	return out
}

// ExportJSON writes the directory as a JSON directory file (what
// ParseDirectoryFile reads back to the same directory).
func (d *Directory) ExportJSON(w io.Writer) error {
	file := struct {
		Items       []Record     `json:"items"`
		Enrollments []Enrollment `json:"enrollments,omitempty"`
	}{d.byStediID(), d.Enrollments()}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(file)
}
