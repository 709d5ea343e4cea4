package caqh

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clearhouse/clearhouse/internal/testenv"
)

// sample270 is the payload of the samples in testdata.
const sample270 = "ISA*03*9876543210*01*9876543210*30*000000005      *30*12345          *131031*1147*^*00501*000000907*1*T*:~GS*HS*000000005*54321*20131031*1147*1*X*005010X279A1~ST*270*1234*005010X279A1~BHT*0022*13*10001234*20060501*1319~HL*1**20*1~NM1*PR*2*ABC COMPANY*****PI*842610001~HL*2*1*21*1~NM1*1P*2*BONE AND JOINT CLINIC*****SV*2000035~HL*3*2*22*0~TRN*1*93175-012547*9877281234~NM1*IL*1*SMITH*ROBERT****MI*11122333301~DMG*D8*19430519~DTP*291*D8*20060501~EQ*30~SE*13*1234~GE*1*1~IEA*1*000000907~"

// sampleRequest is the rule's example request (CORE 270 section 4, as
// reproduced in reference/x12-standards.md §5.1).
func sampleRequest() *Envelope {
	return Request([]byte(sample270), "f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "SUBMITTER01", "PAYER01",
		time.Date(2024, 5, 1, 13, 19, 0, 0, time.UTC))
}

var sampleCredentials = Credentials{Username: "SUBMITTER01USER", Password: "s3cr3t&pass"}

func TestParseRuleSamples(t *testing.T) {
	for _, name := range []string{"rule-realtime-request.soap.xml", "prefixed-children-request.soap.xml"} {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open("testdata/" + name)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			env, cred, err := ParseSOAPRequest(f)
			if err != nil {
				t.Fatal(err)
			}
			want := sampleRequest()
			if strings.HasPrefix(name, "prefixed") {
				want.TimeStamp = "2024-05-01T13:19:00" // that sender writes no zone
			}
			if d := cmp.Diff(want, env); d != "" {
				t.Errorf("envelope (-want +got):\n%s", d)
			}
			if cred != sampleCredentials {
				t.Errorf("credentials %+v", cred)
			}
		})
	}
}

func TestParseSampleResponse(t *testing.T) {
	f, err := os.Open("testdata/realtime-response.soap.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env, fault, err := ParseSOAPResponse(f)
	if err != nil || fault != nil {
		t.Fatal(err, fault)
	}
	if env.PayloadType != PayloadType271 || env.ErrorCode != CodeSuccess || env.ReceiverID != "SUBMITTER01" ||
		!bytes.HasPrefix(env.Payload, []byte("ISA*00*")) || !bytes.HasSuffix(env.Payload, []byte("IEA*1*000000001~")) {
		t.Errorf("response %+v", env)
	}
}

// The envelopes we write are golden files: the rule's layout, byte for
// byte, so a change to what payers receive is a reviewed change.
func TestMarshalGolden(t *testing.T) {
	req := sampleRequest()
	testenv.Golden(t, "testdata/golden/request.soap.xml", MarshalSOAPRequest(req, sampleCredentials))
	mimeReq, ct, err := MarshalMIME(req, &sampleCredentials, "CORE-boundary-1")
	if err != nil {
		t.Fatal(err)
	}
	testenv.Golden(t, "testdata/golden/request.mime", append([]byte("Content-Type: "+ct+"\r\n\r\n"), mimeReq...))

	resp := *req
	resp.PayloadType, resp.SenderID, resp.ReceiverID = PayloadType271, "PAYER01", "SUBMITTER01"
	resp.ErrorCode, resp.ErrorMessage = CodeSuccess, "None"
	testenv.Golden(t, "testdata/golden/response.soap.xml", MarshalSOAPResponse(&resp))
	mimeResp, ct, err := MarshalMIME(&resp, nil, "CORE-boundary-2")
	if err != nil {
		t.Fatal(err)
	}
	testenv.Golden(t, "testdata/golden/response.mime", append([]byte("Content-Type: "+ct+"\r\n\r\n"), mimeResp...))
	testenv.Golden(t, "testdata/golden/fault.soap.xml", MarshalSOAPFault("Sender", "the SOAP body has no COREEnvelopeRealTimeRequest"))
}

// What we write, we read back — including payloads that hold XML's
// special characters and the CDATA terminator.
func TestRoundTrip(t *testing.T) {
	for _, payload := range []string{sample270, "ISA*00*<&>*]]>*x]]]>~", ""} {
		req := sampleRequest()
		req.Payload = []byte(payload)
		env, cred, err := ParseSOAPRequest(bytes.NewReader(MarshalSOAPRequest(req, sampleCredentials)))
		if err != nil {
			t.Fatal(err)
		}
		if string(env.Payload) != payload || cred != sampleCredentials {
			t.Errorf("SOAP round trip of %q: %q %+v", payload, env.Payload, cred)
		}
		body, ct, err := MarshalMIME(req, &sampleCredentials, "")
		if err != nil {
			t.Fatal(err)
		}
		env, cred, err = ParseMIME(bytes.NewReader(body), ct, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if string(env.Payload) != payload || cred != sampleCredentials || env.PayloadID != req.PayloadID {
			t.Errorf("MIME round trip of %q: %+v %+v", payload, env, cred)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	soap11 := strings.Replace(string(MarshalSOAPRequest(sampleRequest(), sampleCredentials)),
		SOAPNamespace, "http://schemas.xmlsoap.org/soap/envelope/", 1)
	if _, _, err := ParseSOAPRequest(strings.NewReader(soap11)); err == nil || !strings.Contains(err.Error(), "SOAP 1.2") {
		t.Errorf("SOAP 1.1: %v", err)
	}
	entity := `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><soapenv:Envelope xmlns:soapenv="` + SOAPNamespace + `"><soapenv:Body>&e;</soapenv:Body></soapenv:Envelope>`
	if _, _, err := ParseSOAPRequest(strings.NewReader(entity)); err == nil {
		t.Error("an external entity was accepted")
	}
	body, ct, _ := MarshalMIME(sampleRequest(), &sampleCredentials, "")
	if _, _, err := ParseMIME(bytes.NewReader(body), ct, 100); err == nil || !strings.Contains(err.Error(), "Payload is larger") && !strings.Contains(err.Error(), "larger than 100") {
		t.Errorf("oversized part: %v", err)
	}
	if _, _, err := ParseMIME(bytes.NewReader(body), "text/plain", 1<<20); err == nil {
		t.Error("text/plain was read as multipart")
	}
}

func TestPayloadTypeOf(t *testing.T) {
	for in, want := range map[string]string{
		"ISA*00*~GS*HB~ST*271*1*005010X279A1~":  PayloadType271,
		"ISA|00|~GS|FA~ST|999|1|005010X231A1~":  PayloadType999,
		"ISA*00*~TA1*000000001*240501*1319*R*~": PayloadTypeTA1,
	} {
		if got := payloadTypeOf([]byte(in)); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(MarshalSOAPRequest(sampleRequest(), sampleCredentials))
	body, _, _ := MarshalMIME(sampleRequest(), &sampleCredentials, "b")
	f.Add(body)
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _ = ParseSOAPRequest(bytes.NewReader(data))
		_, _, _ = ParseSOAPResponse(bytes.NewReader(data))
		_, _, _ = ParseMIME(bytes.NewReader(data), "multipart/form-data; boundary=b", 1<<16)
	})
}
