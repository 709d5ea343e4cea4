package payers

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// The hosted API's CSV (GET /2024-04-01/payers/csv): one header row, then
// a payer a row, every value quoted, lists joined with '|', and per
// transaction type a support flag and an enrollment flag ("true" or
// "false") followed by the enrollment process's columns.

// csvColumns are the header's names, in the hosted order.
var csvColumns = func() []string {
	cols := []string{"StediId", "PrimaryPayerId", "DisplayName", "Names", "Aliases"}
	for _, t := range txTypes {
		cols = append(cols, t.CSVSupport, t.CSVEnrollment, t.CSVProcess+"Type", t.CSVProcess+"Timeframe")
		if t.Key == "claimPayment" {
			cols = append(cols, t.CSVProcess+"SupportedAggregationPreferences")
		}
		cols = append(cols, t.CSVProcess+"RequestedEffectiveDate")
	}
	return append(cols, "EmployerIdentificationNumbers", "CoverageTypes", "OperatingStates", "PtanRequired", "ParentPayerGroupId", "WebsiteUrl")
}()

// CSVColumns lists the CSV header.
func CSVColumns() []string { return slices.Clone(csvColumns) }

// csvRequired are the columns a CSV directory file must have.
var csvRequired = func() []string {
	cols := []string{"StediId", "PrimaryPayerId", "DisplayName"}
	for _, t := range txTypes {
		cols = append(cols, t.CSVSupport, t.CSVEnrollment)
	}
	return cols
}()

// csvRow is a record as CSV values by column name.
func csvRow(r Record) map[string]string {
	join := func(l []string) string { return strings.Join(l, "|") }
	row := map[string]string{
		"StediId": r.StediID, "PrimaryPayerId": r.PrimaryPayerID, "DisplayName": r.DisplayName,
		"Names": join(r.Names), "Aliases": join(r.Aliases),
		"EmployerIdentificationNumbers": join(r.EmployerIdentificationNumbers), "CoverageTypes": join(r.CoverageTypes),
		"OperatingStates": join(r.OperatingStates), "ParentPayerGroupId": r.ParentPayerGroupID,
	}
	if r.URLs != nil {
		row["WebsiteUrl"] = r.URLs.Website
	}
	var procs map[string]EnrollmentProcess
	if r.Enrollment != nil {
		procs = r.Enrollment.TransactionEnrollmentProcesses
		if r.Enrollment.PtanRequired != nil {
			row["PtanRequired"] = fmt.Sprint(*r.Enrollment.PtanRequired)
		}
	}
	for _, t := range txTypes {
		v := r.TransactionSupport.Get(t.Key)
		row[t.CSVSupport] = fmt.Sprint(v != NotSupported)
		row[t.CSVEnrollment] = fmt.Sprint(v == EnrollmentRequired)
		proc := procs[t.Process]
		row[t.CSVProcess+"Type"], row[t.CSVProcess+"Timeframe"] = proc.Type, proc.Timeframe
		row[t.CSVProcess+"RequestedEffectiveDate"] = proc.RequestedEffectiveDate
		if t.Key == "claimPayment" {
			row[t.CSVProcess+"SupportedAggregationPreferences"] = join(proc.SupportedAggregationPreferences)
		}
	}
	return row
}

// writeCSV writes records with every value quoted, as the hosted API does.
func writeCSV(w io.Writer, records []Record) error {
	var b bytes.Buffer
	line := func(values []string) {
		for i, v := range values {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + strings.ReplaceAll(v, `"`, `""`) + `"`)
		}
		b.WriteByte('\n')
	}
	line(csvColumns)
	values := make([]string, len(csvColumns))
	for _, r := range records {
		row := csvRow(r)
		for i, c := range csvColumns {
			values[i] = row[c]
		}
		line(values)
		if b.Len() > 1<<20 {
			if _, err := w.Write(b.Bytes()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// ExportCSV writes the directory as a CSV directory file (the operator's
// data: what ParseDirectoryFile reads back). Enrollments have no place in
// the CSV; ExportJSON keeps them.
func (d *Directory) ExportCSV(w io.Writer) error { return writeCSV(w, d.byStediID()) }

// WriteCSV writes the directory as GET /2024-04-01/payers/csv answers it
// (Records: what this server exchanges).
func (d *Directory) WriteCSV(w io.Writer) error { return writeCSV(w, d.Records()) }

// parseCSVFile reads a CSV directory file; each problem names its line.
func parseCSVFile(data []byte, ps *problems) (*DirectoryFile, error) {
	cr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("line 1: not a CSV header row: %w", err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		_, dup := col[h]
		switch {
		case !slices.Contains(csvColumns, h):
			ps.add(1, h, "is not a column of the payer CSV (%s, …)", strings.Join(csvColumns[:5], ", "))
		case dup:
			ps.add(1, h, "appears twice in the header")
		default:
			col[h] = i
		}
	}
	for _, c := range csvRequired {
		if _, ok := col[c]; !ok {
			ps.add(1, c, "column is missing from the header")
		}
	}
	if len(ps.list) > 0 {
		return &DirectoryFile{}, nil
	}
	f := &DirectoryFile{}
	for {
		values, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("line %d: %w", pe.Line, pe.Err)
			}
			return nil, err
		}
		if len(f.Records) >= MaxDirectoryRecords {
			return nil, fmt.Errorf("line %d: more than %d payers", line, MaxDirectoryRecords)
		}
		if len(values) != len(header) {
			ps.add(line, "row", "has %d values; the header has %d columns", len(values), len(header))
			continue
		}
		get := func(c string) string {
			if i, ok := col[c]; ok {
				return strings.TrimSpace(values[i])
			}
			return ""
		}
		f.Records = append(f.Records, FileRecord{Line: line, Record: csvRecord(get, line, ps)})
	}
	return f, nil
}

// csvRecord reads one row; flags that are not "true" or "false" are
// problems of the row.
func csvRecord(get func(string) string, line int, ps *problems) Record {
	list := func(c string) []string {
		if v := get(c); v != "" {
			return strings.Split(v, "|")
		}
		return nil
	}
	flag := func(c string) (bool, bool) {
		switch strings.ToLower(get(c)) {
		case "true":
			return true, true
		case "false", "":
			return false, true
		}
		ps.add(line, c, "%q is neither true nor false", truncateText(get(c)))
		return false, false
	}
	r := Record{StediID: get("StediId"), PrimaryPayerID: get("PrimaryPayerId"), DisplayName: get("DisplayName"),
		Names: list("Names"), Aliases: list("Aliases"), CoverageTypes: list("CoverageTypes"),
		OperatingStates: list("OperatingStates"), EmployerIdentificationNumbers: list("EmployerIdentificationNumbers"),
		ParentPayerGroupID: get("ParentPayerGroupId")}
	// Empty lists, not absent ones: a payer with no other names keeps
	// none (an absent list would get its display name).
	if r.Aliases == nil {
		r.Aliases = []string{}
	}
	if r.Names == nil {
		r.Names = []string{}
	}
	if w := get("WebsiteUrl"); w != "" {
		r.URLs = &PayerURLs{Website: w}
	}
	info := &EnrollmentInfo{}
	if v := get("PtanRequired"); v != "" {
		ptan, ok := flag("PtanRequired")
		if ok {
			info.PtanRequired = &ptan
		}
	}
	for _, t := range txTypes {
		supported, ok1 := flag(t.CSVSupport)
		enroll, ok2 := flag(t.CSVEnrollment)
		v := NotSupported
		switch {
		case !ok1 || !ok2:
			v = "" // reported above
		case supported && enroll:
			v = EnrollmentRequired
		case supported:
			v = Supported
		case enroll:
			ps.add(line, t.CSVEnrollment, "is true but %s is false; a payer that does not support a transaction cannot require enrollment for it", t.CSVSupport)
		}
		if v == "" {
			v = NotSupported // keeps checkRecord from reporting the row twice
		}
		*r.TransactionSupport.field(t.Key) = v
		proc := EnrollmentProcess{Type: get(t.CSVProcess + "Type"), Timeframe: get(t.CSVProcess + "Timeframe"),
			RequestedEffectiveDate: get(t.CSVProcess + "RequestedEffectiveDate")}
		if t.Key == "claimPayment" {
			proc.SupportedAggregationPreferences = list(t.CSVProcess + "SupportedAggregationPreferences")
		}
		if proc.Type != "" || proc.Timeframe != "" || proc.RequestedEffectiveDate != "" || len(proc.SupportedAggregationPreferences) > 0 {
			if info.TransactionEnrollmentProcesses == nil {
				info.TransactionEnrollmentProcesses = map[string]EnrollmentProcess{}
			}
			info.TransactionEnrollmentProcesses[t.Process] = proc
		}
	}
	if info.PtanRequired != nil || info.TransactionEnrollmentProcesses != nil {
		r.Enrollment = info
	}
	return r
}
