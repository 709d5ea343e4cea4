package core

import (
	"bufio"
	"encoding/json"
	"io"
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
// file: envelopes from memory, tracked identifiers set by set from the
// spill, so memory stays bounded by one set's identifiers.
func (p *pass) writeMetadata(w io.Writer) error {
	ids, err := p.ids.reader()
	if err != nil {
		return err
	}
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
				list, err := ids.set(s.index)
				if err != nil {
					return err
				}
				md := s.metadata()
				for _, id := range list {
					md.TrackedIdentifiers[id.Element] = append(md.TrackedIdentifiers[id.Element], id.Value)
				}
				b, err := json.Marshal(md)
				if err != nil {
					return err
				}
				bw.Write(b)
			}
			put("]}")
		}
		put("]}")
	}
	put("]}\n")
	return bw.Flush()
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
