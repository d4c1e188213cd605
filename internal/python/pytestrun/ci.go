package pytestrun

import (
	"path/filepath"
	"slices"
	"strings"
)

// github reads a GitHub Actions workflow, or a composite action: the run
// steps of each job, in the working directory and environment the
// workflow, the job and the step set.
func (p *Project) github(file string, src []byte) {
	doc := parseYAML(file, src)
	if doc == nil || doc.kind != yMap {
		return
	}
	rel := p.rel(file)
	if runs := doc.get("runs"); runs != nil {
		p.steps(runs.get("steps"), "", "composite action "+rel, nil)
		return
	}
	env := p.envOf(doc.get("env"), "env of "+rel)
	dir := doc.get("defaults").get("run").get("working-directory").str()
	jobs := doc.get("jobs")
	if jobs == nil || jobs.kind != yMap {
		return
	}
	for i, k := range jobs.keys {
		job := jobs.vals[i]
		where := "job " + k.Text + " of " + rel
		jobEnv := slices.Concat(env, p.envOf(job.get("env"), where))
		jobDir := dir
		if d := job.get("defaults").get("run").get("working-directory").str(); d != "" {
			jobDir = d
		}
		p.steps(job.get("steps"), jobDir, where, jobEnv)
	}
}

// steps reads the run steps of a job.
func (p *Project) steps(steps *ynode, dir, where string, env []Setting) {
	if steps == nil || steps.kind != ySeq {
		return
	}
	for _, st := range steps.items {
		stepEnv := slices.Concat(env, p.envOf(st.get("env"), where))
		stepDir := dir
		if d := st.get("working-directory").str(); d != "" {
			stepDir = d
		}
		if run := st.get("run"); run != nil && run.kind == yScalar {
			p.addShell(&run.val, p.dir(stepDir), where, stepEnv)
		}
	}
}

// dir is a working directory of a CI file, from the project's root.
func (p *Project) dir(d string) string {
	if d == "" || containsExpr(d) {
		return p.Root
	}
	if filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(p.Root, filepath.FromSlash(d))
}

func containsExpr(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '$' && (s[i+1] == '{' || s[i+1] == '(') {
			return true
		}
	}
	return false
}

// gitlabKeys are the top-level keys of a .gitlab-ci.yml that are not
// jobs.
var gitlabKeys = map[string]bool{"variables": true, "stages": true, "default": true, "include": true, "workflow": true,
	"image": true, "services": true, "cache": true, "before_script": true, "after_script": true, "spec": true}

// gitlab reads a .gitlab-ci.yml: each job's scripts (before_script,
// script, after_script, one shell from the project's root) in the
// variables of the file and of the job, with what its extends: and
// !reference tags bring in. A hidden job (".name") runs only through
// those, and is not read as a job of its own.
func (p *Project) gitlab(file string, src []byte) {
	doc := parseYAML(file, src)
	if doc == nil || doc.kind != yMap {
		return
	}
	rel := p.rel(file)
	global := p.envOf(doc.get("variables"), "variables of "+rel)
	defaults := doc.get("default")
	for _, key := range []string{"before_script", "after_script"} {
		p.scripts(doc, []*ynode{doc.get(key), defaults.get(key)}, "the default "+key+" of "+rel, global)
	}
	for i, k := range doc.keys {
		if gitlabKeys[k.Text] || strings.HasPrefix(k.Text, ".") {
			continue
		}
		job := extended(doc, doc.vals[i], 0)
		if job == nil || job.kind != yMap {
			continue
		}
		where := "job " + k.Text + " of " + rel
		env := slices.Concat(global, p.envOf(job.get("variables"), where))
		p.scripts(doc, []*ynode{job.get("before_script"), job.get("script"), job.get("after_script")}, where, env)
	}
}

// gitlabDepth is how deep GitLab follows extends: and !reference.
const gitlabDepth = 10

// extended is a GitLab job with the jobs its extends: names merged under
// it, as GitLab merges them: mappings key by key, anything else replaced,
// a later name over an earlier one and the job's own keys over all.
func extended(doc, job *ynode, depth int) *ynode {
	names := job.get("extends").strs()
	if len(names) == 0 || depth > gitlabDepth {
		return job
	}
	var base *ynode
	for _, name := range names {
		base = merged(base, extended(doc, doc.get(name), depth+1))
	}
	return merged(base, job)
}

// merged is over laid on base: two mappings merged key by key, else over
// (or base, when there is no over).
func merged(base, over *ynode) *ynode {
	switch {
	case over == nil:
		return base
	case base == nil || base.kind != yMap || over.kind != yMap:
		return over
	}
	out := &ynode{kind: yMap, Pos: over.Pos}
	for i, k := range base.keys {
		out.keys = append(out.keys, k)
		out.vals = append(out.vals, merged(base.vals[i], over.get(k.Text)))
	}
	for i, k := range over.keys {
		if base.get(k.Text) == nil {
			out.keys = append(out.keys, k)
			out.vals = append(out.vals, over.vals[i])
		}
	}
	return out
}

// scripts reads the script lines of a GitLab job as the one shell that
// runs them, so a "cd" holds for the lines after it.
func (p *Project) scripts(doc *ynode, lists []*ynode, where string, env []Setting) {
	var t text
	for _, l := range lists {
		for _, s := range scriptLines(doc, l, 0) {
			t.b = append(t.b, s.val.b...)
			t.pos = append(t.pos, s.val.pos...)
			t.join("\n")
		}
	}
	if len(t.b) > 0 {
		p.addShell(&t, p.Root, where, env)
	}
}

// scriptLines are the lines of a GitLab script: a string, or a list whose
// nested lists and !reference [job, key, ...] items bring in the lines
// they hold or name.
func scriptLines(doc, n *ynode, depth int) []*ynode {
	switch {
	case n == nil || depth > gitlabDepth:
		return nil
	case n.kind == yScalar:
		return []*ynode{n}
	case n.tag == "!reference":
		path := n.strs()
		if len(path) == 0 {
			return nil
		}
		target := extended(doc, doc.get(path[0]), 0)
		for _, key := range path[1:] {
			target = target.get(key)
		}
		return scriptLines(doc, target, depth+1)
	}
	var out []*ynode
	for _, it := range n.seq() {
		out = append(out, scriptLines(doc, it, depth+1)...)
	}
	return out
}

// circleci reads a CircleCI configuration: each job's run steps (a
// command, or a map with command, working_directory and environment), in
// the job's environment. The job's own working_directory is where its
// checkout goes, the project's root.
func (p *Project) circleci(file string, src []byte) {
	doc := parseYAML(file, src)
	jobs := doc.get("jobs")
	if jobs == nil || jobs.kind != yMap {
		return
	}
	rel := p.rel(file)
	for i, k := range jobs.keys {
		job := jobs.vals[i]
		where := "job " + k.Text + " of " + rel
		env := p.envOf(job.get("environment"), where)
		for _, st := range job.get("steps").seq() {
			run, stepEnv, dir := st.get("run"), env, ""
			if run != nil && run.kind == yMap {
				stepEnv = slices.Concat(env, p.envOf(run.get("environment"), where))
				dir = run.get("working_directory").str()
				run = run.get("command")
			}
			if strings.HasPrefix(dir, "~") || filepath.IsAbs(dir) {
				dir = "" // a place on the CI machine, not known here
			}
			if run != nil && run.kind == yScalar {
				p.addShell(&run.val, p.dir(dir), where, stepEnv)
			}
		}
	}
}

// azure reads an Azure Pipelines file: its script and bash steps, at the
// top, in jobs and in stages' jobs, in the variables of the pipeline, the
// stage and the job and the step's env, from the step's
// workingDirectory. Templates are not followed.
func (p *Project) azure(file string, src []byte) {
	doc := parseYAML(file, src)
	if doc == nil || doc.kind != yMap {
		return
	}
	rel := p.rel(file)
	env := p.azureVars(doc.get("variables"), "variables of "+rel)
	p.azureSteps(doc.get("steps"), "the steps of "+rel, env)
	p.azureJobs(doc.get("jobs"), rel, env)
	for _, stage := range doc.get("stages").seq() {
		where := "stage " + stage.get("stage").str() + " of " + rel
		p.azureJobs(stage.get("jobs"), rel, slices.Concat(env, p.azureVars(stage.get("variables"), where)))
	}
}

func (p *Project) azureJobs(jobs *ynode, rel string, env []Setting) {
	for _, job := range jobs.seq() {
		where := "job " + job.get("job").str() + " of " + rel
		p.azureSteps(job.get("steps"), where, slices.Concat(env, p.azureVars(job.get("variables"), where)))
	}
}

func (p *Project) azureSteps(steps *ynode, where string, env []Setting) {
	for _, st := range steps.seq() {
		run := st.get("script")
		if run == nil {
			run = st.get("bash")
		}
		if run != nil && run.kind == yScalar {
			stepEnv := slices.Concat(env, p.envOf(st.get("env"), where))
			p.addShell(&run.val, p.dir(st.get("workingDirectory").str()), where, stepEnv)
		}
	}
}

// azureVars reads Azure's variables: a mapping, or a list of {name,
// value} items (groups and templates are left out).
func (p *Project) azureVars(n *ynode, where string) []Setting {
	if n == nil || n.kind == yMap {
		return p.envOf(n, where)
	}
	var out []Setting
	for _, it := range n.seq() {
		name, value := it.get("name").str(), it.get("value")
		if name == "" || value == nil || value.kind != yScalar {
			continue
		}
		s := Setting{Name: name, Value: Word{Text: value.str(), Pos: value.Pos}, Where: where}
		p.setting(s)
		out = append(out, s)
	}
	return out
}
