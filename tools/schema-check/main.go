// schema-check binds Pulumi package schemas with Pulumi's own binder (pkg/v3/codegen/schema,
// as the CLI and the SDK generators bind them) and prints, per file, a JSON report: the
// binder's diagnostics, every property that has no description, and, with -sdks DIR, the
// files Pulumi's Node.js, Python and Go generators make of it (written to DIR/<package>/<language>).
// It exits 1 when a file has an error or an undescribed property.
//
//	go run . -sdks /tmp/sdks ../../schema/crm.json ../../schema/chat.json
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// noOtherPackages is the binder's loader: these schemas refer to no other package (a nil
// loader panics as soon as the binder asks for one).
type noOtherPackages struct{}

func (noOtherPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q; these schemas refer to no other package", pkg)
}

func (l noOtherPackages) LoadPackageV2(_ context.Context, descriptor *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(descriptor.Name, nil)
}

func (l noOtherPackages) LoadPackageReference(pkg string, version *semver.Version) (schema.PackageReference, error) {
	_, err := l.LoadPackage(pkg, version)
	return nil, err
}

func (l noOtherPackages) LoadPackageReferenceV2(ctx context.Context, descriptor *schema.PackageDescriptor) (schema.PackageReference, error) {
	_, err := l.LoadPackageV2(ctx, descriptor)
	return nil, err
}

type report struct {
	File        string   `json:"file"`
	Diagnostics []string `json:"diagnostics"`
	Errors      int      `json:"errors"`
	Undescribed []string `json:"undescribed"`
	Resources   int      `json:"resources"`
	Functions   int      `json:"functions"`
	Types       int      `json:"types"`
	Properties  int      `json:"properties"`
	// With -sdks: the files each generator made, by language.
	SDKFiles map[string]int `json:"sdkFiles,omitempty"`
}

// generateSDKs runs Pulumi's generators for Node.js, Python and Go on the bound package and
// writes what they make under dir/<package>/<language>.
func generateSDKs(pkg *schema.Package, dir string) (map[string]int, error) {
	generators := map[string]func() (map[string][]byte, error){
		"nodejs": func() (map[string][]byte, error) {
			return nodejs.GeneratePackage("schema-check", pkg, nil, nil, false, noOtherPackages{})
		},
		"python": func() (map[string][]byte, error) {
			return python.GeneratePackage("schema-check", pkg, nil, noOtherPackages{})
		},
		"go": func() (map[string][]byte, error) { return gogen.GeneratePackage("schema-check", pkg, nil) },
	}
	counts := map[string]int{}
	for language, generate := range generators {
		files, err := generate()
		if err != nil {
			return nil, fmt.Errorf("%s SDK: %w", language, err)
		}
		for name, content := range files {
			path := filepath.Join(dir, pkg.Name, language, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(path, content, 0o644); err != nil {
				return nil, err
			}
		}
		counts[language] = len(files)
	}
	return counts, nil
}

func check(file string, sdks string) (report, error) {
	r := report{File: file, Diagnostics: []string{}, Undescribed: []string{}}
	data, err := os.ReadFile(file)
	if err != nil {
		return r, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		return r, fmt.Errorf("%s: %w", file, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noOtherPackages{}, schema.ValidationOptions{})
	if err != nil {
		return r, fmt.Errorf("%s: %w", file, err)
	}
	for _, diag := range diags {
		r.Diagnostics = append(r.Diagnostics, diag.Error())
	}
	if diags.HasErrors() {
		r.Errors = len(diags.Errs())
		return r, nil
	}

	describe := func(where string, properties []*schema.Property) {
		for _, property := range properties {
			r.Properties++
			if property.Comment == "" {
				r.Undescribed = append(r.Undescribed, where+"."+property.Name)
			}
		}
	}
	describe("config", pkg.Config)
	if pkg.Provider != nil {
		describe("provider", pkg.Provider.InputProperties)
	}
	for _, resource := range pkg.Resources {
		r.Resources++
		describe(resource.Token+" input", resource.InputProperties)
		describe(resource.Token, resource.Properties)
	}
	for _, function := range pkg.Functions {
		r.Functions++
		if function.Inputs != nil {
			describe(function.Token+" input", function.Inputs.Properties)
		}
		if function.Outputs != nil {
			describe(function.Token, function.Outputs.Properties)
		}
	}
	for _, typ := range pkg.Types {
		switch typ := typ.(type) {
		case *schema.ObjectType:
			// Each object type is bound twice, as plain values and as inputs: counted once.
			if typ.IsPlainShape() {
				r.Types++
				describe(typ.Token, typ.Properties)
			}
		case *schema.EnumType:
			r.Types++
		}
	}
	sort.Strings(r.Undescribed)
	if sdks != "" {
		if r.SDKFiles, err = generateSDKs(pkg, sdks); err != nil {
			return r, fmt.Errorf("%s: %w", file, err)
		}
	}
	return r, nil
}

func main() {
	sdks := flag.String("sdks", "", "a folder to generate each package's Node.js, Python and Go SDKs into")
	flag.Parse()
	failed := false
	for _, file := range flag.Args() {
		r, err := check(file, *sdks)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		failed = failed || r.Errors > 0 || len(r.Undescribed) > 0
		line, _ := json.Marshal(r)
		fmt.Println(string(line))
	}
	if failed {
		os.Exit(1)
	}
}
