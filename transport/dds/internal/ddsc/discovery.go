package ddsc

// Builtin names a DDS builtin discovery topic.
type Builtin int32

// The builtin topics simclock reads (values are the shim's).
const (
	BuiltinParticipant  Builtin = 1 // DCPSParticipant
	BuiltinPublication  Builtin = 3 // DCPSPublication: writers
	BuiltinSubscription Builtin = 4 // DCPSSubscription: readers
)

// Infinite is the duration Cyclone uses for "no limit" (DDS_INFINITY).
const Infinite int64 = 1<<63 - 1

// EndpointQoS is a discovered endpoint's QoS. Enumerations keep Cyclone's
// values (documented on each field); durations are nanoseconds, Infinite
// for none.
type EndpointQoS struct {
	Reliability       int32 // 0 best effort, 1 reliable
	Durability        int32 // 0 volatile, 1 transient local, 2 transient, 3 persistent
	HistoryKind       int32 // 0 keep last, 1 keep all
	HistoryDepth      int32
	Deadline          int64
	Lifespan          int64
	LivelinessKind    int32 // 0 automatic, 1 manual by participant, 2 manual by topic
	LeaseDuration     int64
	Ownership         int32 // 0 shared, 1 exclusive
	OwnershipStrength int32
	DestinationOrder  int32 // 0 by reception timestamp, 1 by source timestamp
	// DataRepresentation lists the offered (writer) or accepted (reader)
	// representations: 0 XCDR1, 1 XML, 2 XCDR2. Empty means XCDR1.
	DataRepresentation []int16
}

// An EndpointSample is one DCPSPublication or DCPSSubscription sample.
type EndpointSample struct {
	Key         [16]byte // the endpoint's GUID
	Participant [16]byte // its participant's GUID
	// Alive is false when the endpoint went away; only Key is then set.
	Alive    bool
	Topic    string
	Type     string
	UserData []byte
	// Partitions is the PARTITION policy (of the endpoint's publisher or
	// subscriber); empty for the default partition.
	Partitions []string
	QoS        EndpointQoS
}

// A ParticipantSample is one DCPSParticipant sample.
type ParticipantSample struct {
	Key      [16]byte
	Alive    bool // false when the participant went away; only Key is then set
	UserData []byte
	// Process, PID and Host are the properties Cyclone DDS participants
	// announce (__ProcessName, __Pid, __Hostname); empty for other vendors.
	Process, PID, Host string
}
