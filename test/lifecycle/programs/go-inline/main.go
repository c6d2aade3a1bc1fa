// An inline Go program on the generated Go SDK (sdk/go/crm), run through the Automation API on
// the real CLI: a Go program in a folder needs the Go language host, which the Go module proxy
// here refuses; an inline program serves the language runtime in its own process.
//
//	go-inline <stack> <up|up-refresh|preview|refresh|drift-check|destroy> [account name ...]
//
// declares a crm.Account per name given (none: a program without resources); with
// $EXPLICIT_PROVIDER, through an explicit provider, each with a note. The CLI is
// $PULUMI_ROOT/bin/pulumi; the stack lives in the backend $PULUMI_BACKEND_URL names, its
// config is $STACK_CONFIG ({"crm:apiUrl": {"value": "...", "secret": false}, ...}). Prints the
// operation's resource changes as JSON (a drift check's: what a refresh would change); exits
// with the CLI's exit code where the CLI failed (a drift check's 7 on drift, as `pulumi refresh
// --preview-only --expect-no-changes`), 1 on another error.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"

	"github.com/pulumi-crm/pulumi-crm/sdk/go/crm"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// explicitProvider is $EXPLICIT_PROVIDER, {"apiUrl": "...", "apiToken": "..."}: when set, each
// account goes to that account through an explicit provider (crm.NewProvider), with a note.
type explicitProvider struct {
	APIURL   string `json:"apiUrl"`
	APIToken string `json:"apiToken"`
}

func program(names []string, explicit *explicitProvider) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		var options []pulumi.ResourceOption
		if explicit != nil {
			client, err := crm.NewProvider(ctx, "client", &crm.ProviderArgs{
				ApiUrl:   pulumi.String(explicit.APIURL),
				ApiToken: pulumi.String(explicit.APIToken), // secret in the state: the schema marks it so
			})
			if err != nil {
				return err
			}
			options = append(options, pulumi.Provider(client))
		}
		ids := pulumi.StringArray{}
		for _, name := range names {
			account, err := crm.NewAccount(ctx, name, &crm.AccountArgs{Name: pulumi.String(name)}, options...)
			if err != nil {
				return err
			}
			if explicit != nil {
				if _, err := crm.NewAccountNote(ctx, name+"-note", &crm.AccountNoteArgs{AccountId: account.ID().ToStringOutput(), Note: pulumi.String("Managed by Pulumi")}, options...); err != nil {
					return err
				}
			}
			ids = append(ids, account.ID().ToStringOutput())
		}
		ctx.Export("accountIds", ids)
		return nil
	}
}

func run(ctx context.Context, stackName, command string, names []string) (map[string]int, error) {
	cli, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: os.Getenv("PULUMI_ROOT")})
	if err != nil {
		return nil, err
	}
	var explicit *explicitProvider
	if settings := os.Getenv("EXPLICIT_PROVIDER"); settings != "" {
		explicit = &explicitProvider{}
		if err := json.Unmarshal([]byte(settings), explicit); err != nil {
			return nil, fmt.Errorf("EXPLICIT_PROVIDER: %w", err)
		}
	}
	stack, err := auto.UpsertStackInlineSource(ctx, stackName, "go-inline", program(names, explicit), auto.Pulumi(cli))
	if err != nil {
		return nil, err
	}
	if config := os.Getenv("STACK_CONFIG"); config != "" {
		var values auto.ConfigMap
		if err := json.Unmarshal([]byte(config), &values); err != nil {
			return nil, fmt.Errorf("STACK_CONFIG: %w", err)
		}
		if err := stack.SetAllConfig(ctx, values); err != nil {
			return nil, err
		}
	}
	switch command {
	case "up":
		result, err := stack.Up(ctx)
		return changes(result.Summary.ResourceChanges), err
	case "up-refresh":
		result, err := stack.Up(ctx, optup.Refresh())
		return changes(result.Summary.ResourceChanges), err
	case "preview":
		result, err := stack.Preview(ctx)
		return planned(result.ChangeSummary), err
	case "refresh":
		result, err := stack.Refresh(ctx)
		return changes(result.Summary.ResourceChanges), err
	case "drift-check":
		result, err := stack.PreviewRefresh(ctx, optrefresh.ExpectNoChanges())
		return planned(result.ChangeSummary), err
	case "destroy":
		result, err := stack.Destroy(ctx)
		return changes(result.Summary.ResourceChanges), err
	}
	return nil, fmt.Errorf("unknown command %q: up, up-refresh, preview, refresh, drift-check or destroy", command)
}

func changes(counts *map[string]int) map[string]int {
	if counts == nil {
		return map[string]int{}
	}
	return *counts
}

func planned(counts map[apitype.OpType]int) map[string]int {
	byName := map[string]int{}
	for op, count := range counts {
		byName[string(op)] = count
	}
	return byName
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: go-inline <stack> <up|up-refresh|preview|refresh|drift-check|destroy> [account name ...]")
		os.Exit(2)
	}
	counts, err := run(context.Background(), os.Args[1], os.Args[2], os.Args[3:])
	printed, _ := json.Marshal(counts)
	fmt.Println(string(printed))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(exitCodeOf(err))
	}
}

// The CLI's exit code, which the Automation API's error gives only in its text ("code: 7").
var cliExitCode = regexp.MustCompile(`\bcode: (\d+)`)

func exitCodeOf(err error) int {
	if found := cliExitCode.FindStringSubmatch(err.Error()); found != nil {
		if code, convErr := strconv.Atoi(found[1]); convErr == nil && code != 0 {
			return code
		}
	}
	return 1
}
