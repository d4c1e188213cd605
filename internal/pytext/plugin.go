package pytext

// The pytest plugin fixturegen releases beside its CLI: the import shield
// alone, as a distribution users install next to pytest-timeout. The
// generated runtime asks it by PluginModule to stand aside, triage and
// check name it by PluginDistribution, and users turn it off by PluginName
// (-p no:import_shield).
const (
	// PluginDistribution is the distribution's name on the package index.
	PluginDistribution = "pytest-import-shield"
	// PluginModule is the module the distribution installs.
	PluginModule = "pytest_import_shield"
	// PluginName is the plugin's pytest11 entry-point name: pytest
	// registers the module under it.
	PluginName = "import_shield"
)
