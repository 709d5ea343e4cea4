package core

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/clearhouse/clearhouse/internal/store"
)

// MetadataVersion is the version of the execution metadata document
// (spec §2.6).
const MetadataVersion = "2023-08-01"

type span struct {
	Start int64 `json:"start"`
	End   int64 `json:"end"`
}

type mdInterchange struct {
	Envelope        mdISA    `json:"envelope"`
	Acknowledgments []any    `json:"acknowledgments"`
	Standard        string   `json:"standard"`
	Span            span     `json:"span"`
	Delimiters      mdDelims `json:"delimiters"`
}

type mdISA struct {
	SenderQualifier             string `json:"senderQualifier"`
	SenderID                    string `json:"senderId"`
	ReceiverQualifier           string `json:"receiverQualifier"`
	ReceiverID                  string `json:"receiverId"`
	Date                        string `json:"date"`
	Time                        string `json:"time"`
	VersionNumberCode           string `json:"versionNumberCode"`
	ControlNumber               int64  `json:"controlNumber"`
	AcknowledgmentRequestedCode string `json:"acknowledgmentRequestedCode"`
	UsageIndicatorCode          string `json:"usageIndicatorCode"`
	Trailer                     struct {
		NumberOfIncludedFunctionalGroups int64 `json:"numberOfIncludedFunctionalGroups"`
		ControlNumber                    int64 `json:"controlNumber"`
	} `json:"trailer"`
	Segments struct {
		ISA string `json:"isa"`
		IEA string `json:"iea"`
	} `json:"segments"`
}

type mdDelims struct {
	Segment    string `json:"segment"`
	Element    string `json:"element"`
	Composite  string `json:"composite"`
	Repetition string `json:"repetition"`
}

type mdGroup struct {
	Envelope mdGS `json:"envelope"`
	Span     span `json:"span"`
}

type mdGS struct {
	FunctionalIdentifierCode string `json:"functionalIdentifierCode"`
	ApplicationSenderCode    string `json:"applicationSenderCode"`
	ApplicationReceiverCode  string `json:"applicationReceiverCode"`
	Date                     string `json:"date"`
	Time                     string `json:"time"`
	ControlNumber            int64  `json:"controlNumber"`
	ResponsibleAgencyCode    string `json:"responsibleAgencyCode"`
	Release                  string `json:"release"`
	Trailer                  struct {
		NumberOfIncludedTransactionSets int64 `json:"numberOfIncludedTransactionSets"`
		ControlNumber                   int64 `json:"controlNumber"`
	} `json:"trailer"`
	Segments struct {
		GS string `json:"gs"`
		GE string `json:"ge"`
	} `json:"segments"`
}

type mdSet struct {
	ID                                string `json:"id"`
	ControlNumber                     string `json:"controlNumber"`
	ImplementationConventionReference string `json:"implementationConventionReference"`
	Trailer                           struct {
		NumberOfIncludedSegments int64  `json:"numberOfIncludedSegments"`
		ControlNumber            string `json:"controlNumber"`
	} `json:"trailer"`
	Span               span                `json:"span"`
	TrackedIdentifiers map[string][]string `json:"trackedIdentifiers"`
}

// writeMetadata streams the execution metadata document of the pass's
// file: envelopes from memory, tracked identifiers read back from the spill
// as they are written, so memory does not grow with a set's identifiers.
func (p *pass) writeMetadata(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	put := func(s string) { bw.WriteString(s) }
	enc := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		// Drop the closing brace: the caller appends members.
		bw.Write(b[:len(b)-1])
		return nil
	}
	put(`{"version":"` + MetadataVersion + `","interchanges":[`)
	for i, ic := range p.interchanges {
		if i > 0 {
			put(",")
		}
		if err := enc(ic.metadata()); err != nil {
			return err
		}
		put(`,"functionalGroups":[`)
		for j, g := range ic.groups {
			if j > 0 {
				put(",")
			}
			if err := enc(g.metadata()); err != nil {
				return err
			}
			put(`,"transactionSets":[`)
			for k, s := range g.sets {
				if k > 0 {
					put(",")
				}
				if err := p.writeSetMetadata(bw, s); err != nil {
					return err
				}
			}
			put("]}")
		}
		put("]}")
	}
	put("]}\n")
	return bw.Flush()
}

// writeSetMetadata writes one set's object as json.Marshal would with its
// trackedIdentifiers map filled (keys sorted, values in the order they
// came), reading the set's identifiers once per element instead of holding
// them.
func (p *pass) writeSetMetadata(bw *bufio.Writer, s *setResult) error {
	b, err := json.Marshal(s.metadata())
	if err != nil {
		return err
	}
	head, ok := bytes.CutSuffix(b, []byte("{}}"))
	if !ok {
		return fmt.Errorf("core: set metadata %s does not end with its identifiers", b)
	}
	bw.Write(head)
	bw.WriteByte('{')
	elements := slices.Clone(p.ids.span(s.index).elements)
	slices.Sort(elements)
	var tmp []byte
	for i, el := range elements {
		if i > 0 {
			bw.WriteByte(',')
		}
		tmp = appendJSONString(tmp[:0], el)
		bw.Write(append(tmp, ':', '['))
		first := true
		err := p.ids.each(s.index, func(id *store.BusinessIdentifier) error {
			if id.Element != el {
				return nil
			}
			if !first {
				bw.WriteByte(',')
			}
			first = false
			tmp = appendJSONString(tmp[:0], id.Value)
			_, err := bw.Write(tmp)
			return err
		})
		if err != nil {
			return err
		}
		bw.WriteByte(']')
	}
	_, err = bw.WriteString("}}")
	return err
}

// appendJSONString appends v as encoding/json writes a string: plain
// printable ASCII as it is, anything else through json.Marshal (which also
// escapes <, > and &).
func appendJSONString(b []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(v)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, v...)
	return append(b, '"')
}

func (ic *interchange) metadata() mdInterchange {
	m := mdInterchange{Acknowledgments: []any{}, Standard: "x12", Span: span{ic.start, ic.end},
		Delimiters: mdDelims{Segment: string(ic.d.Segment), Element: string(ic.d.Element),
			Composite: string(ic.d.Component), Repetition: string(ic.d.Repetition)}}
	if ic.d.Repetition == 0 {
		m.Delimiters.Repetition = ""
	}
	e := &m.Envelope
	e.SenderQualifier, e.SenderID, e.ReceiverQualifier, e.ReceiverID = ic.senderQual, ic.sentSenderID, ic.recvQual, ic.sentRecvID
	e.Date, e.Time, e.VersionNumberCode = isaDate(ic.date), hhmm(ic.time), ic.version
	e.ControlNumber, e.AcknowledgmentRequestedCode, e.UsageIndicatorCode = controlNumber(ic.control), ic.ackCode, ic.usage
	e.Trailer.NumberOfIncludedFunctionalGroups, e.Trailer.ControlNumber = controlNumber(ic.ieaGroups), controlNumber(ic.ieaControl)
	e.Segments.ISA, e.Segments.IEA = ic.raw, ic.ieaRaw
	return m
}

func (g *group) metadata() mdGroup {
	m := mdGroup{Span: span{g.start, g.end}}
	e := &m.Envelope
	e.FunctionalIdentifierCode, e.ApplicationSenderCode, e.ApplicationReceiverCode = g.functionalID, g.senderCode, g.recvCode
	e.Date, e.Time, e.ControlNumber = gsDate(g.date), gsTime(g.time), controlNumber(g.control)
	e.ResponsibleAgencyCode, e.Release = g.agency, g.release
	e.Trailer.NumberOfIncludedTransactionSets, e.Trailer.ControlNumber = controlNumber(g.geSets), controlNumber(g.geControl)
	e.Segments.GS, e.Segments.GE = g.raw, g.geRaw
	return m
}

func (s *setResult) metadata() mdSet {
	m := mdSet{ID: s.id, ControlNumber: s.control, ImplementationConventionReference: s.reference,
		Span: span{s.start, s.end}, TrackedIdentifiers: map[string][]string{}}
	m.Trailer.NumberOfIncludedSegments, m.Trailer.ControlNumber = controlNumber(s.seCount), s.seControl
	return m
}
