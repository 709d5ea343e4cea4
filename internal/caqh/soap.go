package caqh

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// SOAPContentType is SOAP 1.2's media type.
const SOAPContentType = "application/soap+xml; charset=UTF-8"

// MarshalSOAPRequest writes a SOAP 1.2 request: the UsernameToken header
// and the COREEnvelopeRealTimeRequest body, the payload in CDATA. The
// layout is the rule's example (prefixes soapenv, wsse and ns1; element
// children unqualified), so payers that compare text see what they expect.
func MarshalSOAPRequest(env *Envelope, cred Credentials) []byte {
	var b bytes.Buffer
	b.Grow(len(env.Payload) + 1024)
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<soapenv:Envelope xmlns:soapenv="` + SOAPNamespace + `">` + "\n")
	b.WriteString(" <soapenv:Header>\n")
	b.WriteString(`  <wsse:Security xmlns:wsse="` + WSSENamespace + `" soapenv:mustUnderstand="true">` + "\n")
	b.WriteString("   <wsse:UsernameToken>\n")
	b.WriteString("    <wsse:Username>" + escape(cred.Username) + "</wsse:Username>\n")
	b.WriteString(`    <wsse:Password Type="` + PasswordText + `">` + escape(cred.Password) + "</wsse:Password>\n")
	b.WriteString("   </wsse:UsernameToken>\n")
	b.WriteString("  </wsse:Security>\n")
	b.WriteString(" </soapenv:Header>\n")
	writeSOAPBody(&b, "COREEnvelopeRealTimeRequest", env, false)
	b.WriteString("</soapenv:Envelope>\n")
	return b.Bytes()
}

// MarshalSOAPResponse writes a SOAP 1.2 response (no header, ErrorCode and
// ErrorMessage after the payload).
func MarshalSOAPResponse(env *Envelope) []byte {
	var b bytes.Buffer
	b.Grow(len(env.Payload) + 1024)
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<soapenv:Envelope xmlns:soapenv="` + SOAPNamespace + `">` + "\n")
	writeSOAPBody(&b, "COREEnvelopeRealTimeResponse", env, true)
	b.WriteString("</soapenv:Envelope>\n")
	return b.Bytes()
}

// MarshalSOAPFault writes a SOAP 1.2 Fault (code env:Sender, env:Receiver
// or env:VersionMismatch) for requests that are not a CORE envelope.
func MarshalSOAPFault(code, reason string) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<soapenv:Envelope xmlns:soapenv="` + SOAPNamespace + `">` + "\n")
	b.WriteString(" <soapenv:Body>\n  <soapenv:Fault>\n")
	b.WriteString("   <soapenv:Code><soapenv:Value>soapenv:" + escape(code) + "</soapenv:Value></soapenv:Code>\n")
	b.WriteString(`   <soapenv:Reason><soapenv:Text xml:lang="en">` + escape(reason) + "</soapenv:Text></soapenv:Reason>\n")
	b.WriteString("  </soapenv:Fault>\n </soapenv:Body>\n</soapenv:Envelope>\n")
	return b.Bytes()
}

func writeSOAPBody(b *bytes.Buffer, element string, env *Envelope, response bool) {
	b.WriteString(" <soapenv:Body>\n")
	b.WriteString(`  <ns1:` + element + ` xmlns:ns1="` + Namespace + `">` + "\n")
	field := func(name, value string) {
		b.WriteString("   <" + name + ">" + escape(value) + "</" + name + ">\n")
	}
	field("PayloadType", env.PayloadType)
	field("ProcessingMode", env.ProcessingMode)
	field("PayloadID", env.PayloadID)
	field("TimeStamp", env.TimeStamp)
	field("SenderID", env.SenderID)
	field("ReceiverID", env.ReceiverID)
	field("CORERuleVersion", env.CORERuleVersion)
	b.WriteString("   <Payload>")
	writeCDATA(b, env.Payload)
	b.WriteString("</Payload>\n")
	if response {
		field("ErrorCode", env.ErrorCode)
		field("ErrorMessage", env.ErrorMessage)
	}
	b.WriteString("  </ns1:" + element + ">\n")
	b.WriteString(" </soapenv:Body>\n")
}

// writeCDATA wraps p in CDATA sections, splitting at "]]>" (which a CDATA
// section cannot contain) so any payload survives the round trip.
func writeCDATA(b *bytes.Buffer, p []byte) {
	if len(p) == 0 {
		return
	}
	b.WriteString("<![CDATA[")
	for {
		i := bytes.Index(p, []byte("]]>"))
		if i < 0 {
			break
		}
		b.Write(p[:i+2])
		b.WriteString("]]><![CDATA[")
		p = p[i+2:]
	}
	b.Write(p)
	b.WriteString("]]>")
}

func escape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// soapMessage is what ParseSOAP reads. Element names match in any
// namespace (senders qualify the CORE fields or not); the envelope's own
// namespace is checked by hand to answer VersionMismatch.
type soapMessage struct {
	XMLName xml.Name
	Header  struct {
		Security struct {
			UsernameToken struct {
				Username string `xml:"Username"`
				Password string `xml:"Password"`
			} `xml:"UsernameToken"`
		} `xml:"Security"`
	} `xml:"Header"`
	Body struct {
		Request  *soapCORE `xml:"COREEnvelopeRealTimeRequest"`
		Response *soapCORE `xml:"COREEnvelopeRealTimeResponse"`
		Fault    *struct {
			Code struct {
				Value   string `xml:"Value"`
				Subcode struct {
					Value string `xml:"Value"`
				} `xml:"Subcode"`
			} `xml:"Code"`
			Reason struct {
				Text string `xml:"Text"`
			} `xml:"Reason"`
		} `xml:"Fault"`
	} `xml:"Body"`
}

type soapCORE struct {
	XMLName         xml.Name
	PayloadType     string `xml:"PayloadType"`
	ProcessingMode  string `xml:"ProcessingMode"`
	PayloadID       string `xml:"PayloadID"`
	TimeStamp       string `xml:"TimeStamp"`
	SenderID        string `xml:"SenderID"`
	ReceiverID      string `xml:"ReceiverID"`
	CORERuleVersion string `xml:"CORERuleVersion"`
	Payload         string `xml:"Payload"`
	ErrorCode       string `xml:"ErrorCode"`
	ErrorMessage    string `xml:"ErrorMessage"`
}

func (c *soapCORE) envelope() *Envelope {
	return &Envelope{
		PayloadType: strings.TrimSpace(c.PayloadType), ProcessingMode: strings.TrimSpace(c.ProcessingMode),
		PayloadID: strings.TrimSpace(c.PayloadID), TimeStamp: strings.TrimSpace(c.TimeStamp),
		SenderID: strings.TrimSpace(c.SenderID), ReceiverID: strings.TrimSpace(c.ReceiverID),
		CORERuleVersion: strings.TrimSpace(c.CORERuleVersion),
		// CDATA whitespace around the interchange is layout, not data.
		Payload:   []byte(strings.TrimSpace(c.Payload)),
		ErrorCode: strings.TrimSpace(c.ErrorCode), ErrorMessage: strings.TrimSpace(c.ErrorMessage),
	}
}

// Fault is a SOAP 1.2 Fault read from an answer.
type Fault struct {
	Code, Subcode, Reason string
}

// errNotSOAP12 marks a document whose root is not a SOAP 1.2 Envelope.
var errNotSOAP12 = errors.New("not a SOAP 1.2 envelope")

// ParseSOAPRequest reads a request: its envelope and credentials.
func ParseSOAPRequest(r io.Reader) (*Envelope, Credentials, error) {
	m, err := parseSOAP(r)
	if err != nil {
		return nil, Credentials{}, err
	}
	if m.Body.Request == nil {
		return nil, Credentials{}, errors.New("the SOAP body has no COREEnvelopeRealTimeRequest")
	}
	tok := m.Header.Security.UsernameToken
	return m.Body.Request.envelope(), Credentials{Username: strings.TrimSpace(tok.Username), Password: tok.Password}, nil
}

// ParseSOAPResponse reads an answer: the CORE response envelope, or the
// Fault in its place.
func ParseSOAPResponse(r io.Reader) (*Envelope, *Fault, error) {
	m, err := parseSOAP(r)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case m.Body.Response != nil:
		return m.Body.Response.envelope(), nil, nil
	case m.Body.Fault != nil:
		f := m.Body.Fault
		return nil, &Fault{Code: strings.TrimSpace(f.Code.Value), Subcode: strings.TrimSpace(f.Code.Subcode.Value), Reason: strings.TrimSpace(f.Reason.Text)}, nil
	}
	return nil, nil, errors.New("the SOAP body has neither a COREEnvelopeRealTimeResponse nor a Fault")
}

func parseSOAP(r io.Reader) (*soapMessage, error) {
	dec := xml.NewDecoder(r)
	// No DTDs or external entities: encoding/xml never fetches them, and
	// Strict mode refuses undeclared entities.
	dec.Strict = true
	var m soapMessage
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("unreadable SOAP: %w", err)
	}
	if m.XMLName.Local != "Envelope" || m.XMLName.Space != SOAPNamespace {
		return nil, fmt.Errorf("%w: root element {%s}%s", errNotSOAP12, m.XMLName.Space, m.XMLName.Local)
	}
	return &m, nil
}
