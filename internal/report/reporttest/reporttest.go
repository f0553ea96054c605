// Package reporttest checks, from tests, that simclock's SARIF output is
// valid SARIF 2.1.0: valid against the official JSON schema of OASIS
// (internal/report/testdata/sarif-schema-2.1.0.json); and that its JUnit
// XML is valid against the Jenkins xUnit plugin's junit-10.xsd and reads
// as colcon test-result and ament_cmake_test read it.
package reporttest

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaURL is the schema's own id, under which it is compiled, so that
// nothing is ever fetched.
const schemaURL = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	_, here, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
})

// ValidateSARIF fails t when log is not a SARIF 2.1.0 log that the
// official schema accepts, naming every violation.
func ValidateSARIF(t testing.TB, log []byte) {
	t.Helper()
	schema, err := compiled()
	if err != nil {
		t.Fatalf("reporttest: the SARIF 2.1.0 schema: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(log))
	if err != nil {
		t.Fatalf("reporttest: SARIF output is not JSON: %v", err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("SARIF output is not valid SARIF 2.1.0:\n%v", err)
	}
}
