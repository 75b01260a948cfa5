// bridge-types.js is generated from the bridge's Go types (wasm/*.go) by
// go test ./wasm -run TestBridgeTypesAreCurrent -update-bridge-types: edit
// those, not this. It holds only JSDoc types, for tsc (make typecheck) to
// check the page's requests and its reading of the answers against the JSON
// the bridge speaks. A field marked [optional] is left out when empty (Go's
// omitempty); a pointer may be null.

/**
 * BridgeOps maps each op to its arguments and its answer's result.
 * @typedef {{
 *   check: {args: CheckArgs, result: CheckResult},
 *   complete: {args: CompleteArgs, result: CompleteResult},
 *   functions: {args: StepsArgs, result: FunctionsResult},
 *   grade: {args: GradeArgs, result: GradeResult},
 *   help: {args: HelpArgs, result: HelpResult},
 *   lessons: {args: undefined, result: LessonsResult},
 *   load: {args: LoadArgs, result: LoadResult},
 *   prepare: {args: PrepareArgs, result: PrepareResult},
 *   run: {args: RunArgs, result: RunResult},
 *   seek: {args: SeekArgs, result: SeekResult},
 *   setLessons: {args: SetLessonsArgs, result: LessonsResult},
 *   sources: {args: undefined, result: SourcesResult},
 *   stabilize: {args: StabilizeArgs, result: StepsResult},
 *   step: {args: StepArgs, result: StepsResult},
 *   steps: {args: StepsArgs, result: StepsResult},
 *   untilSync: {args: UntilSyncArgs, result: StepsResult},
 *   view: {args: ViewArgs, result: View},
 * }} BridgeOps
 */

/**
 * APIFault is world.APIFault.
 * @typedef {Object} APIFault
 * @property {number} id
 * @property {string} text
 * @property {string} [verb]
 * @property {string} [resource]
 * @property {string} error
 * @property {number} fired
 */

/**
 * Agenda is world.Agenda.
 * @typedef {Object} Agenda
 * @property {number} pending
 * @property {number} background
 * @property {Array<AgendaEvent>} [next]
 */

/**
 * AgendaEvent is world.AgendaEvent.
 * @typedef {Object} AgendaEvent
 * @property {string} at
 * @property {number} seq
 * @property {string} to
 * @property {string} what
 * @property {boolean} [background]
 */

/**
 * ArgDoc is script.ArgDoc.
 * @typedef {Object} ArgDoc
 * @property {string} name
 * @property {string} help
 * @property {boolean} [optional]
 * @property {boolean} [repeated]
 * @property {Array<string>} [values]
 */

/**
 * BlockInfo is wasm.BlockInfo.
 * @typedef {Object} BlockInfo
 * @property {string} kind
 * @property {string} text
 * @property {PredictInfo | null} [predict]
 */

/**
 * Budget is world.Budget.
 * @typedef {Object} Budget
 * @property {number} maxPods
 * @property {number} minAvailable
 * @property {number} wanted
 * @property {number} pods
 * @property {number} available
 */

/**
 * CacheEntry is world.CacheEntry.
 * @typedef {Object} CacheEntry
 * @property {string} key
 * @property {string} [cache]
 * @property {string} [api]
 * @property {string} [diff]
 */

/**
 * CheckArgs is wasm.CheckArgs.
 * @typedef {Object} CheckArgs
 * @property {number} [page]
 * @property {number | null} [block]
 */

/**
 * CheckLine is wasm.CheckLine.
 * @typedef {Object} CheckLine
 * @property {string} text
 * @property {boolean} met
 * @property {CommandError | null} [failure]
 */

/**
 * CheckResult is wasm.CheckResult.
 * @typedef {Object} CheckResult
 * @property {boolean} met
 * @property {CommandError | null} [failure]
 * @property {Array<CheckLine>} [lines]
 */

/**
 * ChoiceInfo is wasm.ChoiceInfo.
 * @typedef {Object} ChoiceInfo
 * @property {string} text
 * @property {string} expect
 */

/**
 * CommandDoc is script.CommandDoc.
 * @typedef {Object} CommandDoc
 * @property {string} name
 * @property {string} group
 * @property {string} usage
 * @property {string} summary
 * @property {string} [details]
 * @property {Array<string>} [aliases]
 * @property {Array<ArgDoc>} [args]
 * @property {Array<FlagDoc>} [flags]
 * @property {Array<string>} examples
 */

/**
 * CommandError is wasm.CommandError.
 * @typedef {Object} CommandError
 * @property {string} kind
 * @property {number} line
 * @property {number} col
 * @property {string} message
 * @property {Array<string>} [suggestions]
 * @property {string} [hint]
 * @property {string} error
 */

/**
 * CompleteArgs is wasm.CompleteArgs.
 * @typedef {Object} CompleteArgs
 * @property {string} line
 * @property {number | null} [cursor]
 */

/**
 * CompleteResult is wasm.CompleteResult.
 * @typedef {Object} CompleteResult
 * @property {number} start
 * @property {number} end
 * @property {Array<string>} [candidates]
 */

/**
 * Condition is world.Condition.
 * @typedef {Object} Condition
 * @property {string} type
 * @property {string} status
 * @property {string} [reason]
 * @property {string} [message]
 */

/**
 * Controller is world.Controller.
 * @typedef {Object} Controller
 * @property {string} kind
 * @property {string} name
 * @property {boolean} started
 * @property {Queue} queue
 * @property {Array<Worker>} [workers]
 * @property {Array<Expectation>} [expectations]
 * @property {Array<Sync>} [lastSyncs]
 */

/**
 * Delayed is world.Delayed.
 * @typedef {Object} Delayed
 * @property {string} key
 * @property {string} readyAt
 * @property {string} delay
 * @property {boolean} [rateLimited]
 */

/**
 * Deployment is world.Deployment.
 * @typedef {Object} Deployment
 * @property {string} namespace
 * @property {string} name
 * @property {string} selector
 * @property {number} replicas
 * @property {string} strategy
 * @property {number} [maxSurge]
 * @property {number} [maxUnavailable]
 * @property {boolean} [paused]
 * @property {string} [revision]
 * @property {DeploymentStatus} status
 * @property {Array<Condition>} [conditions]
 * @property {boolean} [terminating]
 * @property {string} [image]
 * @property {Array<string>} [replicaSets]
 * @property {string} [newReplicaSet]
 * @property {boolean} [rolling]
 * @property {Budget | null} [budget]
 * @property {Sync | null} [lastScaling]
 * @property {Array<Revision>} [history]
 */

/**
 * DeploymentController is world.DeploymentController.
 * @typedef {Object} DeploymentController
 * @property {string} kind
 * @property {string} name
 * @property {boolean} started
 * @property {Queue} queue
 * @property {Array<Worker>} [workers]
 * @property {Array<Sync>} [lastSyncs]
 */

/**
 * DeploymentStatus is world.DeploymentStatus.
 * @typedef {Object} DeploymentStatus
 * @property {number} replicas
 * @property {number} updatedReplicas
 * @property {number} readyReplicas
 * @property {number} availableReplicas
 * @property {number} unavailableReplicas
 * @property {number} observedGeneration
 * @property {number} generation
 */

/**
 * Expectation is world.Expectation.
 * @typedef {Object} Expectation
 * @property {string} key
 * @property {number} add
 * @property {number} del
 * @property {Array<string>} [pendingDeletes]
 * @property {string} age
 * @property {boolean} satisfied
 * @property {boolean} [expired]
 */

/**
 * Faults is world.Faults.
 * @typedef {Object} Faults
 * @property {Array<APIFault>} [api]
 * @property {Array<WatchFault>} [watch]
 */

/**
 * FlagDoc is script.FlagDoc.
 * @typedef {Object} FlagDoc
 * @property {string} name
 * @property {string} [short]
 * @property {string} type
 * @property {string} [placeholder]
 * @property {string} [default]
 * @property {Array<string>} [values]
 * @property {boolean} [required]
 * @property {string} help
 */

/**
 * Flight is world.Flight.
 * @typedef {Object} Flight
 * @property {string} from
 * @property {string} to
 * @property {number} count
 * @property {string} [next]
 */

/**
 * FunctionRun is wasm.FunctionRun.
 * @typedef {Object} FunctionRun
 * @property {string} name
 * @property {number} count
 * @property {number} first
 * @property {Source | null} [source]
 */

/**
 * FunctionsResult is wasm.FunctionsResult.
 * @typedef {Object} FunctionsResult
 * @property {Array<FunctionRun>} [functions]
 */

/**
 * GC is world.GC.
 * @typedef {Object} GC
 * @property {Array<GCOwner>} [owners]
 * @property {Array<GCDependent>} [dependents]
 */

/**
 * GCDependent is world.GCDependent.
 * @typedef {Object} GCDependent
 * @property {string} object
 * @property {string} [namespace]
 * @property {string} owner
 * @property {string} state
 */

/**
 * GCOwner is world.GCOwner.
 * @typedef {Object} GCOwner
 * @property {string} owner
 * @property {string} [namespace]
 * @property {string} mode
 * @property {string} phase
 * @property {Array<string>} [dependents]
 */

/**
 * GradeArgs is wasm.GradeArgs.
 * @typedef {Object} GradeArgs
 * @property {number} page
 * @property {number} block
 */

/**
 * GradeResult is wasm.GradeResult.
 * @typedef {Object} GradeResult
 * @property {Array<boolean>} holds
 * @property {number} decided
 */

/**
 * Held is world.Held.
 * @typedef {Object} Held
 * @property {string} key
 * @property {string} [worker]
 */

/**
 * HelpArgs is wasm.HelpArgs.
 * @typedef {Object} HelpArgs
 * @property {string} [topic]
 * @property {boolean} [commands]
 */

/**
 * HelpResult is wasm.HelpResult.
 * @typedef {Object} HelpResult
 * @property {string} text
 * @property {Array<CommandDoc>} [commands]
 * @property {Array<KindDoc>} [kinds]
 */

/**
 * Informer is world.Informer.
 * @typedef {Object} Informer
 * @property {string} name
 * @property {string} kind
 * @property {string} state
 * @property {number} lastSyncRV
 * @property {boolean} synced
 * @property {number} lists
 * @property {number} watches
 * @property {number} cached
 * @property {number} inAPI
 * @property {Array<CacheEntry>} [entries]
 * @property {number} entriesTotal
 * @property {number} differ
 * @property {Array<PendingKey>} [pending]
 */

/**
 * Input is wasm.Input.
 * @typedef {Object} Input
 * @property {number} step
 * @property {string} text
 */

/**
 * KindDoc is script.KindDoc.
 * @typedef {Object} KindDoc
 * @property {string} kind
 * @property {string} short
 * @property {Array<string>} names
 */

/**
 * LessonInfo is wasm.LessonInfo.
 * @typedef {Object} LessonInfo
 * @property {string} id
 * @property {PageRange | null} [stepwise]
 * @property {number} number
 * @property {string} title
 * @property {string} summary
 * @property {string} level
 * @property {Array<PageInfo>} [pages]
 * @property {Array<string>} [hints]
 * @property {string} [setup]
 * @property {string} [goal]
 * @property {string} [solution]
 * @property {Array<TranslationInfo>} [translations]
 */

/**
 * LessonsResult is wasm.LessonsResult.
 * @typedef {Object} LessonsResult
 * @property {Array<LessonInfo>} lessons
 */

/**
 * LoadArgs is wasm.LoadArgs.
 * @typedef {Object} LoadArgs
 * @property {string} [lesson]
 * @property {number} [seed]
 */

/**
 * LoadResult is wasm.LoadResult.
 * @typedef {Object} LoadResult
 * @property {string} mode
 * @property {number} seed
 * @property {number} step
 * @property {LessonInfo | null} [lesson]
 */

/**
 * LoopMove is world.LoopMove.
 * @typedef {Object} LoopMove
 * @property {Array<string>} lit
 * @property {string} [from]
 * @property {string} [to]
 * @property {string} [token]
 * @property {string} [fault]
 */

/**
 * Node is world.Node.
 * @typedef {Object} Node
 * @property {string} name
 * @property {boolean} registered
 * @property {boolean} ready
 * @property {boolean} schedulable
 * @property {boolean} kubelet
 */

/**
 * Owner is world.Owner.
 * @typedef {Object} Owner
 * @property {string} kind
 * @property {string} namespace
 * @property {string} name
 * @property {string} selector
 * @property {number} replicas
 * @property {OwnerStatus} status
 * @property {boolean} [terminating]
 * @property {string} [failure]
 * @property {string} [owner]
 * @property {string} [revision]
 * @property {string} [templateHash]
 */

/**
 * OwnerStatus is world.OwnerStatus.
 * @typedef {Object} OwnerStatus
 * @property {number} replicas
 * @property {number} fullyLabeledReplicas
 * @property {number} readyReplicas
 * @property {number} availableReplicas
 * @property {number} observedGeneration
 */

/**
 * PageInfo is wasm.PageInfo.
 * @typedef {Object} PageInfo
 * @property {number} n
 * @property {string} text
 * @property {Array<BlockInfo>} [blocks]
 */

/**
 * PageRange is lesson.PageRange.
 * @typedef {Object} PageRange
 * @property {number} from
 * @property {number} to
 */

/**
 * PendingKey is world.PendingKey.
 * @typedef {Object} PendingKey
 * @property {string} key
 * @property {Array<string>} deltas
 */

/**
 * Pod is world.Pod.
 * @typedef {Object} Pod
 * @property {string} namespace
 * @property {string} name
 * @property {string} phase
 * @property {boolean} ready
 * @property {string} [node]
 * @property {string} [owner]
 * @property {boolean} [ownerGone]
 * @property {Record<string, string>} [labels]
 * @property {string} [image]
 * @property {boolean} [terminating]
 * @property {number} [restarts]
 * @property {string} [kubelet]
 * @property {boolean} [releasing]
 * @property {Array<string>} [adoptableBy]
 */

/**
 * PodGroup is world.PodGroup.
 * @typedef {Object} PodGroup
 * @property {string} namespace
 * @property {string} [owner]
 * @property {boolean} [ownerGone]
 * @property {number} pods
 * @property {number} active
 */

/**
 * PredictInfo is wasm.PredictInfo.
 * @typedef {Object} PredictInfo
 * @property {string} question
 * @property {Array<ChoiceInfo>} choices
 * @property {number} answer
 * @property {string} [explanation]
 */

/**
 * PrepareArgs is wasm.PrepareArgs.
 * @typedef {Object} PrepareArgs
 * @property {number} [maxSteps]
 */

/**
 * PrepareResult is wasm.PrepareResult.
 * @typedef {Object} PrepareResult
 * @property {boolean} done
 * @property {number} [replayed]
 */

/**
 * Queue is world.Queue.
 * @typedef {Object} Queue
 * @property {string} name
 * @property {Array<string>} [waiting]
 * @property {Array<string>} [dirty]
 * @property {Array<Held>} [processing]
 * @property {Array<Delayed>} [delayed]
 * @property {Array<Requeue>} [requeues]
 * @property {Array<string>} [idleWorkers]
 */

/**
 * Ref is world.Ref.
 * @typedef {Object} Ref
 * @property {string} kind
 * @property {string} [namespace]
 * @property {string} name
 */

/**
 * Requeue is world.Requeue.
 * @typedef {Object} Requeue
 * @property {string} key
 * @property {number} count
 */

/**
 * Revision is world.Revision.
 * @typedef {Object} Revision
 * @property {number} revision
 * @property {string} replicaSet
 * @property {string} [image]
 * @property {string} [changeCause]
 */

/**
 * RunArgs is wasm.RunArgs.
 * @typedef {Object} RunArgs
 * @property {string} line
 * @property {number} [page]
 */

/**
 * RunResult is wasm.RunResult.
 * @typedef {Object} RunResult
 * @property {string} [output]
 * @property {CommandError | null} [failure]
 * @property {number} ran
 * @property {Array<Step>} [steps]
 * @property {boolean} [truncated]
 * @property {number} step
 * @property {boolean} atRest
 * @property {boolean} [idle]
 * @property {string} [limit]
 * @property {Sync | null} [sync]
 * @property {number} [keptFrom]
 */

/**
 * Scale is world.Scale.
 * @typedef {Object} Scale
 * @property {string} replicaSet
 * @property {number} from
 * @property {number} to
 * @property {string} by
 * @property {string} why
 */

/**
 * SeekArgs is wasm.SeekArgs.
 * @typedef {Object} SeekArgs
 * @property {number} step
 */

/**
 * SeekResult is wasm.SeekResult.
 * @typedef {Object} SeekResult
 * @property {number} step
 * @property {number} recordedSteps
 */

/**
 * SetLessonsArgs is wasm.SetLessonsArgs.
 * @typedef {Object} SetLessonsArgs
 * @property {string} [bundle]
 * @property {string} [unavailable]
 */

/**
 * Source is wasm.Source.
 * @typedef {Object} Source
 * @property {string} name
 * @property {string} func
 * @property {string} file
 * @property {number} line
 * @property {string} url
 */

/**
 * SourcesResult is wasm.SourcesResult.
 * @typedef {Object} SourcesResult
 * @property {string} tag
 * @property {Array<Source>} sources
 */

/**
 * StabilizeArgs is wasm.StabilizeArgs.
 * @typedef {Object} StabilizeArgs
 * @property {number} [maxSteps]
 * @property {number} [steps]
 */

/**
 * Step is world.Step.
 * @typedef {Object} Step
 * @property {number} n
 * @property {string} at
 * @property {string} actor
 * @property {string} [models]
 * @property {string} summary
 * @property {Array<Ref>} [touched]
 * @property {string} trace
 * @property {LoopMove | null} [loop]
 */

/**
 * StepArgs is wasm.StepArgs.
 * @typedef {Object} StepArgs
 * @property {number} [n]
 */

/**
 * StepsArgs is wasm.StepsArgs.
 * @typedef {Object} StepsArgs
 * @property {number} [from]
 * @property {number} [to]
 */

/**
 * StepsResult is wasm.StepsResult.
 * @typedef {Object} StepsResult
 * @property {number} ran
 * @property {Array<Step>} [steps]
 * @property {boolean} [truncated]
 * @property {number} step
 * @property {boolean} atRest
 * @property {boolean} [idle]
 * @property {string} [limit]
 * @property {Sync | null} [sync]
 * @property {number} [keptFrom]
 */

/**
 * Sync is world.Sync.
 * @typedef {Object} Sync
 * @property {string} owner
 * @property {string} key
 * @property {string} worker
 * @property {string} start
 * @property {string} end
 * @property {string} [decision]
 * @property {string} [err]
 * @property {number} seq
 * @property {Array<Scale>} [scales]
 */

/**
 * TranslationInfo is wasm.TranslationInfo.
 * @typedef {Object} TranslationInfo
 * @property {string} lang
 * @property {string} title
 * @property {string} summary
 * @property {Array<PageInfo>} [pages]
 * @property {Array<string>} [hints]
 */

/**
 * UntilSyncArgs is wasm.UntilSyncArgs.
 * @typedef {Object} UntilSyncArgs
 * @property {string} [owner]
 * @property {string} [namespace]
 * @property {number} [maxSteps]
 */

/**
 * View is wasm.View.
 * @typedef {Object} View
 * @property {string} mode
 * @property {string} [lesson]
 * @property {number} baseStep
 * @property {Array<Input>} [inputs]
 * @property {number} seed
 * @property {string} clock
 * @property {number} clockNanos
 * @property {number} step
 * @property {number} recordedSteps
 * @property {boolean} atRest
 * @property {Array<Node>} [nodes]
 * @property {Array<Owner>} [owners]
 * @property {Array<Pod>} [pods]
 * @property {number} podsTotal
 * @property {Array<PodGroup>} [podGroups]
 * @property {Array<Deployment>} [deployments]
 * @property {Array<Informer>} informers
 * @property {Array<Controller>} controllers
 * @property {DeploymentController | null} [deploymentController]
 * @property {GC} gc
 * @property {Agenda} agenda
 * @property {Faults} faults
 * @property {Array<Flight>} [inFlight]
 * @property {Array<Step>} [lastSteps]
 */

/**
 * ViewArgs is wasm.ViewArgs.
 * @typedef {Object} ViewArgs
 * @property {number} [agenda]
 * @property {number} [steps]
 * @property {number} [pods]
 * @property {number} [podsPerGroup]
 * @property {number} [entries]
 */

/**
 * WatchFault is world.WatchFault.
 * @typedef {Object} WatchFault
 * @property {string} informer
 * @property {number} [dropNext]
 * @property {number} [lost]
 * @property {string} [delay]
 */

/**
 * Worker is world.Worker.
 * @typedef {Object} Worker
 * @property {string} name
 * @property {string} state
 * @property {string} [key]
 * @property {string} [phase]
 * @property {number} [waiting]
 * @property {number} syncs
 */

export {};
