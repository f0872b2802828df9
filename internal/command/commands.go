package command

// command is one rig command or subcommand ("state list"): what runs it and
// what its help says. The options in its help come from the flags it
// defines (help.go), so they cannot drift from what it accepts.
type command struct {
	run func(m *Meta, args []string) int // nil for a command that only has subcommands
	// synopsis is the one line shown in the list of commands.
	synopsis string
	// args is the usage line after the command's name, e.g. "[options] [PLAN]".
	args string
	// about is the help's description: paragraphs separated by blank
	// lines, rewrapped; a paragraph with an indented line is kept as written.
	about string
}

// commands maps each command's full name to the command. A name with a
// space is a subcommand of its first word, which may have a run function
// of its own (providers) or not (state).
var commands map[string]command

func init() {
	commands = map[string]command{
		"init": {runInit, "Prepare your working directory for other commands", "[options]", `
Initialize a new or existing rig working directory: select the state backend (migrating existing state when it changed and -migrate-state is given), and install the providers the configuration requires (from their registries, network mirrors or local mirror directories, as the CLI configuration says) into .terraform/providers, recording their versions and hashes in the dependency lock file .terraform.lock.hcl.

This is the first command to run for a new configuration, and it is safe to run it again.`},
		"test": {runTest, "Execute integration tests for rig modules", "[options]", `
Run the test files of the module in the working directory (*.tftest.hcl, *.tftest.json, OpenTofu's *.tofutest.hcl and *.tofutest.json, in the directory itself and in the test directory, "tests" unless -test-directory says otherwise), as OpenTofu and Terraform run them: each file's run blocks in order, each a plan, or a plan and an apply, of the module (or of the module its module block names), followed by its assertions and expected failures.

Runs that apply create real infrastructure, kept in memory, one state per state key; at the end of each file rig destroys it, state by state in reverse order. Check the output: a cleanup that fails lists what it left behind, by address and id, and saves it in errored_test.tfstate.

Test files run side by side, and so do a file's runs marked parallel, -run-parallelism at a time; provider processes are shared by every run that configures a provider the same way. The first interrupt lets the runs in progress finish, skips the others and cleans up; a second stops at once and lists what is left.`},
		"validate": {runValidate, "Check whether the configuration is valid", "[options]", `
Validate the configuration files in the working directory, referring only to the configuration and not to any remote services such as the state or provider APIs.

Validation checks that the syntax is valid, that the references are to things declared, and that the arguments given to resources and providers match their schemas, as far as that is possible without the input variables' values.`},
		"plan": {runPlan, "Show changes required by the current configuration", "[options]", `
Generate a speculative execution plan, showing what actions rig would take to apply the current configuration, and the order in which it would run them. This command does not perform the planned actions.

You can save the plan to a file with -out, and pass that file to "rig apply" to perform exactly the actions described in the plan.`},
		"apply": {runApply, "Create or update infrastructure", "[options] [PLAN]", `
Create or update infrastructure according to the configuration files in the working directory.

By default rig makes a new plan, shows it and asks for approval before applying it. Given the path of a plan file saved with "rig plan -out", it applies exactly that plan, without asking, if the state has not changed since the plan was made.`},
		"console": {runConsole, "Try expressions at an interactive command prompt", "[options]", `
Evaluate expressions against the configuration and the state of the current workspace: input variables (from -var, -var-file, terraform.tfvars and TF_VAR_ variables), local values, module outputs and the attributes of the resources the state records.

The expressions are read from standard input, one a line, and each value is printed as it would be shown in an output; an expression's errors are shown and the next line is read. The input "exit", or its end, ends the console. In the console, type(EXPR) shows the type of EXPR.

With -plan, rig first makes a plan, as "rig plan" would, and evaluates the expressions against the values it plans: what the next apply would make, unknown where the plan cannot know it.`},
		"refresh": {runRefresh, "Update the state to match remote systems", "[options]", `
Update the state file of the current workspace to match the remote objects it records, reading each object and the data sources, without changing any object.

This is the same as "rig apply -refresh-only -auto-approve": prefer "rig apply -refresh-only", which shows what changed outside of rig and asks for approval before recording it.`},
		"drift": {runDrift, "Report what changed outside rig, writing nothing", "[options]", `
Read back every object the current workspace's state records, at the pace its providers' APIs allow, and report each attribute that changed outside rig, and each object deleted outside rig. The check blocks and the resources' preconditions and postconditions are evaluated against what was read; their failures are warnings.

Nothing is written: neither the state nor a plan. The exit code is 0 when nothing changed and every condition holds, 1 on an error, and 2 when something changed outside rig or a condition failed. To record the changes in the state, run "rig apply -refresh-only"; to undo them, "rig apply".`},
		"destroy": {runDestroy, "Destroy previously-created infrastructure", "[options]", `
Destroy every remote object the current workspace's state manages.

This is the same as "rig apply -destroy": it plans to destroy, shows the plan and asks for approval.`},
		"fmt": {runFmt, "Reformat your configuration in the standard style", "[options] [TARGET...]", `
Rewrite the configuration files (.tf, .tofu and .tfvars) in the canonical format and style that OpenTofu and Terraform use.

By default fmt scans the current directory for configuration files. If you provide a directory as TARGET, it scans that directory instead; if you provide a file, it processes just that file. If TARGET is "-", fmt reads from standard input and writes the result to standard output.

The content must be in the Terraform language's native syntax; JSON is not supported.`},
		"force-unlock": {runForceUnlock, "Release a stuck lock on the current workspace", "[options] LOCK_ID", `
Check the lock on the current workspace's state. rig's locks belong to the process that holds them (an OS lock on the local lock file, a PostgreSQL session's advisory lock) and are released when it exits, however it exits: a lock is never stuck. So this command breaks nothing: it says whether the state is locked and by whom, so that the holder can be stopped.

The http backend's locks are kept by the state server and outlive a holder that dies: for it, the lock with LOCK_ID is released after confirmation (-force: without asking).`},
		"explain": {runExplain, "Explain what a plan does to an object and why", "[options] ADDR [PLAN]", `
Explain what a plan does to the objects at ADDR and why: each object's action and the reasons for it, its create_before_destroy status (its own setting, or inherited along a dependency path), and each of its operations with its step in the order of operations, the operations it waits for and those that wait for it, each with the ordering rule between them, and where in the configuration the resource, its references and its lifecycle settings are written.

ADDR is a module (module.net: every object in it), a resource (all its instances), a resource instance, or a deposed object, written ADDR[deposed=KEY] or as plans print it, "ADDR (deposed object KEY)".

Given the path of a plan file saved with "rig plan -out", it explains that plan; otherwise it makes a new plan with the options below, as "rig plan" would.`},
		"get": {runGet, "Install or upgrade remote modules", "[options]", `
Install the modules the configuration calls, and the modules they call in turn, into .terraform/modules, and record them in .terraform/modules/modules.json. A module already installed is reused unless -update is given.

"rig init" installs the modules too, so this command is rarely needed on its own.`},
		"graph": {runGraph, "Generate a Graphviz graph of the steps in an operation", "[options]", `
Print the configuration's resources and their dependencies as a graph in the DOT format, or with -type=plan or -type=plan-destroy the operations a plan would run and the order between them.

Render the graph with Graphviz, for example:

    rig graph | dot -Tsvg > graph.svg

With -plan=FILE the graph is of the operations that applying the plan saved in FILE runs. -format=mermaid writes a Mermaid flowchart, which GitHub, GitLab and most Markdown renderers draw.

Or let rig draw it: -format=html writes one self-contained page (nothing fetched) that lays out the graph in layers, one band per module (collapsible), coloured by action, with a search box; clicking an operation highlights what it waits for and what waits for it, directly and transitively, and shows its details. -format=svg writes a static image of the same layout:

    rig graph -type=plan -format=html -o plan.html`},
		"query": {runQuery, "Search for existing infrastructure with list blocks", "[options]", `
Run the list blocks of the working directory's query files (*.tfquery.hcl), as Terraform 1.14 does: each asks its provider which objects of a list resource type exist, filtered by its config block, and rig prints one line per object found: the list block's address, the object's resource identity and the provider's name for it.

    list "aws_instance" "web" {
      provider         = aws
      include_resource = true  # the attributes too
      limit            = 50    # at most (default 100)
      config { … }             # the type's filters
    }

The list blocks may refer to the root module's variables and local values and use its provider configurations. With -generate-config-out=FILE, rig writes into the new FILE, for every object found, a resource block with its attributes and an import block that imports it by its identity: "rig plan" then imports them. Nothing is written to the state.`},
		"recover": {runRecover, "Find and import the objects of creates cut off by a crash", "[options]", `
Look for the objects that creates cut off by a crash may have made. With record_create_intents = true in rig.hcl, an apply records each create's intent before asking the provider; a create still begun when rig (or the machine) died is listed by the next runs, because its provider may have made an object the state does not record.

For each such create, rig asks the provider which objects of the type exist that the state does not record, through the type's list resource (as "rig query" does): filtered by the values the create was planned with where the list takes them, and all of them (at most 1,000), so that an object the provider made but never finished writing is found too. It shows each candidate with how it compares with the planned values, then, on confirmation, imports the one exact match (into the create's address; as a deposed object, which the next apply destroys, when an apply has since made another object there) and forgets a create whose provider lists no object the state does not record.

Every other create needs a decision: -select=ADDR=N imports candidate N, -absent=ADDR forgets the create. Without -auto-approve, rig asks. A create whose provider cannot list its type is shown with its planned values: look for it by hand.`},
		"import": {runImport, "Associate existing infrastructure with a rig resource", "[options] ADDR ID", `
Import existing infrastructure into the rig state, so that it comes under rig's management without having been created by rig.

ADDR is the address of the resource instance to import into, which must be declared in the configuration (in the working directory, or in the directory -config names). ID identifies the remote object; its syntax depends on the resource type: see the type's documentation.

This command does not change the infrastructure, but it makes the provider's API calls that read the object being imported.`},
		"login": {runLogin, "Obtain and save credentials for a remote host", "[options] [HOST]", `
Ask for an API token for HOST (by default app.terraform.io), which must offer the login or tokens API of Terraform's service discovery (login.v1 or tfe.v2), and save it in plain text in credentials.tfrc.json in the CLI configuration directory (~/.terraform.d, readable by its owner only), where rig, OpenTofu and Terraform find it.

rig opens no web browser: create the token on the host's web pages and paste it at the prompt, which does not echo it. Where the host offers the tokens API, rig checks the token with it before saving it.`},
		"logout": {runLogout, "Remove locally-stored credentials for a remote host", "[options] [HOST]", `
Remove the API token for HOST (by default app.terraform.io) that "rig login" saved in credentials.tfrc.json. The token is not revoked: revoke it on the host's web pages.`},
		"metadata": {nil, "Metadata related commands", "<subcommand> [options] [args]", `
This command has subcommands for the metadata of rig itself, for editors and other tools.`},
		"metadata functions": {runMetadataFunctions, "Show signatures and descriptions for the available functions", "-json", `
Print the signature of every function the language has, in the JSON format OpenTofu and Terraform print it in: for each function (under its name and under core::NAME) its description, return type, parameters and variadic parameter, with each parameter's name, type and whether it may be null.

The -json flag is required.`},
		"modules": {runModules, "Show all declared modules in a working directory", "[options]", `
List the module calls of the configuration and of the modules it calls, as a tree with each module's source and the version installed; with -json, in the format Terraform prints them.

The modules must be installed ("rig init").`},
		"output": {runOutput, "Show output values from your root module", "[options] [NAME]", `
Read the root module's output values from the state and print them. With a NAME, print only that output's value.`},
		"providers": {runProviders, "Show the providers required for this configuration", "[options]", `
Print the providers the configuration requires, as a tree of its modules with the version constraints each module gives, and the providers the state of the current workspace refers to.`},
		"providers schema": {runProvidersSchema, "Show schemas for the providers used in the configuration", "-json", `
Print the schemas of the providers the configuration and the state of the current workspace use, in the JSON representation OpenTofu and Terraform document: for each provider its configuration, resource types, data sources and functions.

The -json flag is required. The providers must be installed ("rig init").`},
		"providers lock": {runProvidersLock, "Write out dependency locks for the configured providers", "[options] [PROVIDER...]", `
Select a version of each provider the configuration requires, from its version constraints, the selections already in the dependency lock file and the versions its installation methods have, and record it in .terraform.lock.hcl with the hashes of its package for each platform given with -platform (by default the platform rig runs on).

With PROVIDER arguments (source addresses such as hashicorp/random), only those providers' locks are updated. Nothing is installed into the working directory.`},
		"providers mirror": {runProvidersMirror, "Save local copies of all required provider plugins", "[options] DIR", `
Copy the packages of the providers the configuration requires, for each platform given with -platform (by default the platform rig runs on), from their installation methods into DIR in the packed layout, HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip, with the index.json and VERSION.json files of the network mirror protocol beside them.

The versions are those the dependency lock file selects, if it selects one, else the newest the version constraints allow. Name DIR with -plugin-dir, or in a provider_installation block of the CLI configuration, to install from it.`},
		"show": {runShow, "Show the current state or a saved plan", "[options] [PLAN]", `
Print the state of the current workspace in a human-readable form, or, given the path of a plan file saved with "rig plan -out" (or -plan=FILE), the plan, or given a state file, that state.

With -json the state or plan is printed in the JSON representation OpenTofu and Terraform document, and -json-into writes it into a file beside the human output. With -json, -config prints the configuration, and -module=DIR the module in DIR alone, as OpenTofu's JSON configuration representation describes them.`},
		"state": {nil, "Advanced state management", "<subcommand> [options] [args]", `
This command has subcommands for inspecting and replacing the state of the current workspace.

Their output is plain text, one item a line, so that it works well with the common Unix utilities such as grep and awk.`},
		"state list": {runStateList, "List resources in the state", "[options] [ADDRESS...]", `
List the resource instances in the state, one address a line.

With ADDRESS arguments, list only the instances they match: an instance address itself, every instance of a resource address, or every instance whose address begins with ADDRESS followed by a dot.`},
		"state show": {runStateShow, "Show a resource in the state", "[options] ADDRESS", `
Show the attributes of one resource instance in the state.

ADDRESS must name a single instance, such as aws_instance.web[0]. "rig state list" lists the instances there are.

With -json, the instance is printed as OpenTofu prints it: its version message, then a JSON state holding the instance alone.`},
		"state identities": {runStateIdentities, "List the identities of resources in the state", "[options] -json [ADDRESS...]", `
Print, as one JSON object, the resource identity the state records for each resource instance that has one (resource types whose provider declares identities), keyed by instance address, as Terraform prints them.

With ADDRESS arguments, only the instances they match: an instance address itself, every instance of a resource address, or every instance whose address begins with ADDRESS followed by a dot. With -id=ID, only the instances whose object's id attribute is ID.`},
		"state pull": {runStatePull, "Print the state as stored", "[options]", `
Print the current workspace's state exactly as it is stored, in the state file format, whichever backend stores it. Nothing is printed when there is no state.`},
		"state push": {runStatePush, "Replace the state with a state file", "[options] PATH", `
Replace the current workspace's state with the state file at PATH, or with standard input when PATH is "-".

The push is refused when the stored state has another lineage, or a higher serial, than the file: those states were not made from one another. -force writes it anyway. This command is rarely needed; use it with care.`},
		"state rm": {runStateRm, "Remove instances from the state", "[options] ADDRESS...", `
Remove the objects ADDRESS names from the state: a resource instance, every instance of a resource, or everything in a module (module.NAME, or one instance of it).

The remote objects are not destroyed: rig only forgets them. With -dry-run, list what would be removed.

The state is backed up first, to terraform.tfstate.TIME.backup for the local backend (or the file -backup names).`},
		"state mv": {runStateMv, "Move an item in the state", "[options] SOURCE DESTINATION", `
Move the objects SOURCE names in the state to DESTINATION: a resource instance to another address, every instance of a resource to another resource of the same type, or a module (instance) and everything in it to another module path.

Nothing is changed remotely. The destination must not have objects already. With -dry-run, print what would move. With -state-out=FILE, the objects move into the state file FILE (created if missing) rather than within the state.

The state is backed up first, to terraform.tfstate.TIME.backup for the local backend (or the file -backup names).`},
		"state replace-provider": {runStateReplaceProvider, "Replace provider in the state", "[options] FROM TO", `
Replace the provider of every resource in the state recorded with the provider FROM by the provider TO, fully qualified such as registry.terraform.io/hashicorp/aws and registry.example.com/acme/aws. It asks for confirmation unless -auto-approve.`},
		"state unprotect": {runStateUnprotect, "Lift the recorded prevent_destroy of a resource instance", "[options] ADDRESS", `
Lift the lifecycle.prevent_destroy that the state records for the resource instance at ADDRESS (rig.hcl's record_prevent_destroy = true records it when an object is applied): the next plan may destroy the object. The remote object is not changed.

A configuration that still sets prevent_destroy = true for the instance records it again with the next apply. To stop managing the object without destroying it, use a removed block with lifecycle.destroy = false instead.`},
		"taint": {runTaint, "Mark a resource instance as not fully functional", "[options] ADDRESS", `
Mark the resource instance at ADDRESS as tainted: the next plan replaces it. The remote object is not changed now.`},
		"untaint": {runUntaint, "Remove the 'tainted' state from a resource instance", "[options] ADDRESS", `
Clear the tainted mark of the resource instance at ADDRESS, so that the next plan no longer replaces it for that reason.`},
		"version": {runVersion, "Show the current rig version", "[options]", `
Print rig's version, the platform, the version of OpenTofu and Terraform whose language and state format rig implements, and the versions of the providers the dependency lock file selects.`},
		"workspace": {nil, "Workspace management", "<subcommand> [options] [args]", `
This command has subcommands to create, select, list and delete workspaces: separate states of the same configuration, kept by the same backend.`},
		"workspace list": {runWorkspaceList, "List workspaces", "[options]", `
List the workspaces, marking the selected one with an asterisk; with -json, as OpenTofu's workspace_list message.`},
		"workspace show": {runWorkspaceShow, "Show the name of the current workspace", "[options]", `
Print the name of the selected workspace.`},
		"workspace new": {runWorkspaceNew, "Create a new workspace", "[options] NAME", `
Create a new workspace named NAME, with an empty state (or a copy of the state file -state names), and select it.`},
		"workspace select": {runWorkspaceSelect, "Select a workspace", "[options] NAME", `
Select the workspace named NAME for the commands that follow. The selection is recorded in .terraform/environment; the TF_WORKSPACE environment variable overrides it.`},
		"workspace delete": {runWorkspaceDelete, "Delete a workspace", "[options] NAME", `
Delete the workspace named NAME and its state. The default workspace and the selected one cannot be deleted, and a workspace whose state still tracks resources is only deleted with -force.`},
	}
}

// isCommand reports whether name is a command's full name.
func isCommand(name string) bool {
	_, ok := commands[name]
	return ok
}
