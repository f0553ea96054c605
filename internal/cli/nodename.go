package cli

import (
	"cmp"

	"github.com/spf13/pflag"

	"github.com/simclock/simclock/node"
	"github.com/simclock/simclock/transport"
)

// nodeFlags are --node-name and --namespace, which name the ROS node a
// command runs as. ROS-style "--ros-args -r __node:=NAME -r __ns:=/NS"
// (read by Main into Env.ROSArgs) wins over them, as rcl's remapping
// wins over the name in code.
type nodeFlags struct {
	name, namespace string
}

func (f *nodeFlags) add(flags *pflag.FlagSet, defaultName string) {
	flags.StringVar(&f.name, "node-name", defaultName, "ROS node name this command runs as (ros2 node list shows it)")
	flags.StringVar(&f.namespace, "namespace", "/", "ROS namespace of the node")
}

// resolve applies --ros-args remappings and validates the result.
func (f *nodeFlags) resolve(env *Env) (name, namespace string, err error) {
	if env.ROSArgs.UseSimTime != nil {
		return "", "", flagErrorf("--ros-args -p use_sim_time: this command does not follow /clock itself; it only publishes or watches it")
	}
	name = cmp.Or(env.ROSArgs.Name, f.name)
	namespace = cmp.Or(env.ROSArgs.Namespace, f.namespace)
	if err := node.ValidateName(name); err != nil {
		return "", "", flagErrorf("--node-name: %v", err)
	}
	if namespace, err = node.NormalizeNamespace(namespace); err != nil {
		return "", "", flagErrorf("--namespace: %v", err)
	}
	return name, namespace, nil
}

// topic returns the fully qualified topic a command that runs as this node
// uses when the user typed typed: a relative name is in the node's
// namespace, and --ros-args -r FROM:=TO remappings apply, as rcl does. A
// name ROS 2 rejects is a usage error.
func (f *nodeFlags) topic(env *Env, typed string) (string, error) {
	name, ns, err := f.resolve(env)
	if err != nil {
		return "", err
	}
	full, err := env.ROSArgs.RemapTopic(typed, ns, name)
	if err != nil {
		return "", flagErrorf("%v", err)
	}
	return full, nil
}

// asNode returns the view of tr that announces the command's endpoints
// under its node (a no-op for transports without nodes) and its closer.
func asNode(tr transport.Transport, env *Env, f *nodeFlags) (transport.Transport, func(), error) {
	name, ns, err := f.resolve(env)
	if err != nil {
		return nil, nil, err
	}
	s, ok := tr.(transport.NodeScoper)
	if !ok {
		return tr, func() {}, nil
	}
	view, err := s.ForNode(name, ns)
	if err != nil {
		return nil, nil, err
	}
	return view, func() { view.Close() }, nil //nolint:errcheck // nothing left to report
}
