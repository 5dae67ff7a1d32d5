/* Internal to the ESP model (the .c files in src/models/esp): the SoC object's layout and
 * the helpers the model's files share. Users go through esp_soc.h only. */
#ifndef SOCMON_MODELS_ESP_INTERNAL_H
#define SOCMON_MODELS_ESP_INTERNAL_H

#include <stdint.h>
#include "hw/esp_monitor.h"
#include "models/esp/esp_soc.h"
#include "socmon/phase.h"

#define ESP_MAX_PHASES 16        /* more than any built-in workload has */

struct socmon_esp_soc;

/* One tile's register window: the live counters, the snapshot taken on the
 * burst register's rising edge, and the words of the access table
 * (ESP_TILE_REGINFO: burst register, config CSRs), by word index. */
typedef struct esp_tile {
    struct socmon_esp_soc *soc;    /* back pointer: the region callbacks get the tile */
    unsigned index;
    uint64_t defined;              /* bit m set: monitor m is wired in this tile */
    uint32_t count[ESP_NMON];
    uint32_t frozen[ESP_NMON];
    uint32_t xcount[ESP_NXMON];    /* model-only counters (hw/esp_monitor.h), and their snapshot */
    uint32_t xfrozen[ESP_NXMON];
    uint32_t word[ESP_TILE_WORDS];  /* storage of the access-table registers */
    uint64_t cfg_writes;           /* software must not write them: counted for tests */
    unsigned op_point;             /* current DVFS op point 0..3 */
} esp_tile;


struct socmon_esp_soc {
    socmon_esp_soc_desc desc;
    unsigned ntiles;
    esp_tile *tiles;
    uint64_t cycles;               /* simulated tile-clock cycles since reset */
    uint64_t ns;                   /* simulated time handed out by now_ns */
    struct esp_engine *eng;
};

/* Which monitors are wired in a tile of this type (bit m = monitor m), from
 * the wiring table of hw/esp_monitor.h. */
uint64_t smn_esp_defined_mask(const socmon_esp_soc_desc *d, unsigned tile);
/* Puts a tile's registers in their reset state (counters, snapshot, the
 * access table's reset values, TILE_ID = the tile's index). */
void smn_esp_tile_reset(esp_tile *t);
/* Adds n to a live monitor if it is wired in the tile; wraps modulo 2^32. The
 * two 64-bit accelerator pairs (14/15, 16/17) carry from lo into hi. */
void smn_esp_count(socmon_esp_soc *soc, unsigned tile, unsigned mon, uint64_t n);
const char *smn_esp_tile_type_name(socmon_esp_tile_type t);

/* Engine hooks (esp_engine.c). */
socmon_status smn_esp_engine_new(socmon_esp_soc *soc);
void smn_esp_engine_free(socmon_esp_soc *soc);
void smn_esp_engine_reset(socmon_esp_soc *soc);
#define ESP_NO_TILE UINT32_MAX
/* Moves a tile to DVFS op point op (ESP_NO_TILE: ignored). */
void smn_esp_set_op(socmon_esp_soc *soc, unsigned tile, unsigned op);

/* ---- workload model ---- */

#define ESP_LINE 16u              /* ESP's 128-bit cache line */
#define ESP_PAGE 4096u            /* home interleaving and TLB granule */
#define ESP_L2_SETS 512u          /* 32 KiB, 4-way */
#define ESP_L2_WAYS 4u
#define ESP_LLC_SETS 1024u        /* 256 KiB per memory tile, 16-way */
#define ESP_LLC_WAYS 16u
#define ESP_QDEPTH 4u             /* router input FIFO depth, flits (QUEUE_SIZE of rtl/noc/router) */
#define ESP_FLITS_CTRL 2u         /* header + address */
#define ESP_FLITS_DATA 3u         /* header + a line in two 64-bit flits */
#define ESP_FLITS_DMA_WRITE 4u    /* header + address + a line */
#define ESP_MAX_HOPS 6
#define ESP_ACC_MAX_OUT 8u        /* outstanding DMA lines per accelerator */

/* NoC planes (0-based; the monitors' plane p is ESP's NoC p+1), as ESP's
 * tile queues use them (docs/esp-model.md). The two DMA planes cross: NoC6
 * carries DMA requests and coherent-DMA responses, NoC4 DMA responses and
 * coherent-DMA requests, so neither kind can block the other's replies. */
enum { ESP_P_COH_REQ = 0, ESP_P_COH_FWD = 1, ESP_P_COH_RSP = 2, ESP_P_NOC4 = 3,
       ESP_P_MISC = 4, ESP_P_NOC6 = 5 };
/* Router ports are numbered in the monitors' direction order (ESP_DIR_*, ESP_NDIRS). */

typedef struct esp_cache {
    unsigned sets, ways;
    uint64_t *tag;       /* line number + 1; 0 = invalid */
    uint8_t *dirty;
    uint16_t *holder;    /* LLC only: tile + 1 of the private L2 holding the line */
    uint64_t *stamp;     /* LRU */
    uint64_t clock;
} esp_cache;

socmon_status smn_esp_cache_init(esp_cache *c, unsigned sets, unsigned ways, int with_holder);
void smn_esp_cache_destroy(esp_cache *c);
void smn_esp_cache_clear(esp_cache *c);
/* Way index holding line (touching it for LRU), or -1. */
int smn_esp_cache_find(esp_cache *c, uint64_t line);
/* Way to fill line into: an invalid way, else the least recently used. */
int smn_esp_cache_victim(const esp_cache *c, uint64_t line);
static inline unsigned esp_cache_slot(const esp_cache *c, uint64_t line, int way)
{
    return (unsigned)(line % c->sets) * c->ways + (unsigned)way;
}
void smn_esp_cache_fill(esp_cache *c, unsigned slot, uint64_t line, int dirty);

/* A monitor a hop moves, and by how much: the memory tile's queue monitors (1..8) count their
 * FIFO's read or write strobes, one per flit (ESP's tile_mem.vhd), DDR counts AHB beats, the
 * LLC's hit and miss one per lookup. */
typedef struct esp_effect {
    uint16_t tile;
    uint8_t mon;
    uint16_t n;
} esp_effect;

typedef struct esp_hop {
    uint16_t src, dst;
    uint16_t flits;              /* 1..256 (a trace's packets are up to 256 flits) */
    uint8_t plane;
    uint8_t nsend, nrecv;
    esp_effect send[2];          /* counted when the packet is handed to the NoC */
    esp_effect recv[5];          /* counted when its last flit arrives */
} esp_hop;

struct esp_act;

/* One transaction: packets that follow each other, each sent by the tile the
 * previous one reached. Only one hop is in flight at a time. */
typedef struct esp_chain {
    struct esp_act *act;         /* told when the last hop arrives; may be NULL */
    uint8_t nhops, cur;
    uint16_t flits_out, flits_in; /* of the current hop */
    /* The cycle the current hop's head entered its source router: the NoC sets it (a traffic
     * workload's latency is from it to the cycle smn_esp_chain_arrived is called, the tail's). */
    uint64_t t_head;
    esp_hop hops[ESP_MAX_HOPS];
    struct esp_chain *next;      /* pending-injection list or free list */
    /* The memory system's time (esp_mem.c): work[k] (an esp_work, 0 = none) is what tile
     * wtile[k] does before hop k leaves (k = nhops: before the requester is told); a chain
     * waiting for it sits in the engine's delay heap until cycle due (seq breaks ties). */
    uint8_t work[ESP_MAX_HOPS + 1];
    uint16_t wtile[ESP_MAX_HOPS + 1];
    uint64_t due, seq;
    uint8_t wplane;              /* in the heap: plane + 1 of the input queue it holds, or 0 */
} esp_chain;

/* What a tile's cache or memory controller does for a transaction (esp_mem.c). */
enum {
    ESP_W_NONE = 0,
    ESP_W_LLC,          /* LLC request (Get, Put, LLC-coherent or coherent DMA line) */
    ESP_W_LLC_RSP,      /* LLC takes a recall's response and resumes the stalled request */
    ESP_W_DDR_RD,       /* non-coherent DMA: a line read from DDR, past the LLC */
    ESP_W_DDR_WR,       /* non-coherent DMA: a line written to DDR */
    ESP_W_L2_LOOKUP,    /* private L2: a request's lookup (the hit's answer, or the miss found) */
    ESP_W_L2_FWD,       /* private L2: a recall (forward) answered */
    ESP_W_L2_FILL,      /* private L2: the data response filled in */
    ESP_W_KIND = 0x0f,
    ESP_W_FILL = 0x10,  /* with ESP_W_LLC: a miss, the line read from DDR */
    ESP_W_WB = 0x20,    /* with ESP_W_LLC: a dirty victim written to DDR first */
};

/* Cycles the memory system's units take (esp_mem.c; docs/esp-model.md §3 "Latency" names
 * the source of each). */
#define ESP_LLC_PIPE 7u           /* one LLC request, hit: DECODE..UPDATE */
#define ESP_LLC_MEM_REQ 1u        /* a miss: the MEM_REQ state before the DDR read */
#define ESP_LLC_FLUSH_SET (5u + ESP_LLC_WAYS) /* an LLC flush, per set */
#define ESP_DDR_BEATS 2u          /* a 16-byte line on the 64-bit AHB */
#define ESP_DDR_RD (12u + ESP_DDR_BEATS)  /* a line read: latency + beats */
#define ESP_DDR_WR (4u + ESP_DDR_BEATS)   /* a line written (the controller posts it) */
#define ESP_L2_LOOKUP 4u          /* DECODE, REQS_LOOKUP, TAG_LOOKUP, the hit or miss state */
#define ESP_L2_FWD 5u             /* DECODE, FWD_REQS_LOOKUP, FWD_TAG_LOOKUP, FWD_HIT, FWD_HIT_2 */
#define ESP_L2_FILL 3u            /* DECODE, RSP_LOOKUP, RSP_DATA_* */
#define ESP_L2_FLUSH_SLOT 2u      /* an L2 flush, per way of every set: DECODE, FLUSH_LOOKUP */
#define ESP_L2_FLUSH_PUT 1u       /* ... plus FLUSH_PROCESS for a valid line (its Put) */
#define ESP_MEM_QDEPTH 4u         /* packets a tile's input queue on a plane holds for a busy unit */

/* The memory system's state: when each unit is free again, and the chains waiting on one. */
typedef struct esp_memsys {
    uint64_t *llc_free, *ddr_free, *l2_free;   /* [tile]: first cycle the unit is free */
    uint16_t *waiting;                         /* [tile * ESP_NPLANES + plane]: packets that
                                                  arrived there and wait for a unit */
    esp_chain **heap;                          /* min-heap on (due, seq) */
    size_t nheap, capheap;
    uint64_t seq;
} esp_memsys;

/* The NoC's state, per plane, as ESP's router RTL holds it (esp_noc.c says how a cycle uses
 * it). Ports are numbered as the RTL numbers them (ESP_DIR_*: N, S, W, E, L).
 *
 * - A flit is an id (1..26 per tile) into the plane's flit arrays: its chain, its destination,
 *   whether it is a packet's head and tail. The ids of an input FIFO are one 64-bit word (head in
 *   the low 16 bits); an output register is one id (0: void).
 * - link[i] is the flit arriving on input i this cycle: the upstream router's output register
 *   (written by that router), or the tile's offer on the local input. */
typedef uint16_t esp_route;      /* output port (bits 0-2); else the neighbour's input (3-5), tile (6-15) */
#define ESP_ROUTE(o, in, nt) ((esp_route)((o) | (in) << 3 | (nt) << 6))

/* 16-bit fields: a store through an 8-bit one may alias anything, and the compiler
 * would reload every pointer of the hot loop after it. The fields decide() reads come first. */
typedef struct esp_router {
    uint64_t q[ESP_NDIRS];       /* FIFO ids, head in bits 0-15; the lanes past the count are 0 */
    uint16_t nonempty, full;     /* bit i: input FIFO i holds a flit / holds ESP_QDEPTH (stop_out) */
    uint16_t stopin;             /* bit o: output o's next FIFO is full (its full, set by that router),
                                    bit L: the sink is stopped */
    uint16_t outmask, linkmask;  /* bit o: output register o holds a flit; bit i: link[i] does */
    uint16_t locked;             /* bit o: output o is held by a worm (head forwarded, tail not) */
    uint16_t link[ESP_NDIRS];    /* arriving flits (0: void) */
    uint16_t cfg[ESP_NDIRS];     /* the input a locked output is held by (or last forwarded from) */
    uint16_t lrg[ESP_NDIRS];     /* per output: the order of its four inputs, most to least preferred,
                                    as an index into the NoC's arbiter tables (0: the initial order) */
    uint16_t qn[ESP_NDIRS];      /* flits in each input FIFO */
    uint16_t out[ESP_NDIRS];     /* output registers */
    /* What the first half of a cycle decided, for the second (esp_noc.c): the inputs read, the
     * outputs forwarded into, the outputs that change (forwarded into, or their flit leaves), the
     * input each output takes (3 bits each; 5: none), the links as they were */
    uint16_t rd, fwdm, mov, sel, caplink, capid[ESP_NDIRS];
    /* Asleep: its last cycle changed nothing but its monitors, and nothing it decides from has
     * changed since (esp_noc.c, "Sleeping routers"). */
    uint16_t asleep;
    uint16_t pass;               /* this cycle's decision: 0 general, bit 0 a pass (its input and
                                    output above), 2 only registers draining (esp_noc.c, "Passes") */
    uint64_t listed;             /* the cycle + 1 it is on the plane's list for */
    /* The monitors, counted per span (esp_noc.c): the cycle (mod 2^32) output register o has held
     * a flit since, input FIFO i has been full since, counted up to then. */
    uint32_t so[ESP_NDIRS], sf[ESP_NDIRS];
} esp_router;

typedef struct esp_plane {
    esp_router *r;               /* [tile] */
    esp_chain **fch;             /* [flit id] */
    uint16_t *fdst;              /* [flit id] */
    uint16_t *fkind;             /* [flit id]: bit 0 head, bit 1 tail; a head's bits 2-4: the output
                                    it takes at the router it is in or entering (16 bits: a store
                                    through a char type may alias anything, esp_router's note) */
    uint16_t *ffree;             /* free flit ids, a stack */
    unsigned nfree;
    uint16_t *list, *next;       /* routers to visit this cycle and the next */
    unsigned nlist, nnext;
    uint64_t list_cycle;         /* the cycle list is for */
    uint16_t *inj_list;          /* tiles with packets to inject, in the order they got them */
    unsigned ninj, nready;       /* nready: those of them whose local input is not full */
    uint8_t *sink_stop;          /* [tile]: nonzero while its sink accepts nothing (a trace's stall) */
    unsigned p;                  /* its index */
} esp_plane;

typedef struct esp_noc {
    unsigned rows, cols, n;
    esp_plane pl[ESP_NPLANES];
    esp_chain **pend_head, **pend_tail;      /* [tile*ESP_NPLANES + plane] */
    esp_route *route;                        /* [tile * n + dst]: the output XY routing takes */
    int delta[ESP_NDIRS];                    /* by output: the neighbour's tile - this tile */
    /* The matrix arbiters, per output o, by order k (one of the 24 of its four inputs): the input
     * a request mask gets (arb_grant[o][k][mask]; ESP_NDIRS for none), the order after input i is
     * granted (arb_demote[o][k][i]) */
    uint8_t arb_grant[ESP_NDIRS][24][32];
    uint8_t arb_demote[ESP_NDIRS][24][ESP_NDIRS];
    uint64_t flits_in_net, pending;
    unsigned busy;                           /* bit p: plane p may have a router listed or a tile
                                                that can offer (never clear when it has) */
    struct socmon_esp_soc *soc;              /* set by smn_esp_noc_cycle: a wake counts a router's sleep */
    /* The cycle the NoC runs now and the plane it is at (in_cycle), or the next cycle it runs */
    uint64_t now;
    unsigned cur;
    int in_cycle;
} esp_noc;

socmon_status smn_esp_noc_init(esp_noc *noc, unsigned rows, unsigned cols);
void smn_esp_noc_destroy(esp_noc *noc);
void smn_esp_noc_clear(esp_noc *noc);
/* Hands a chain's current hop to its source tile's injection queue. */
void smn_esp_noc_send(socmon_esp_soc *soc, esp_chain *ch);
/* One cycle (number soc->cycles) of every plane: route, eject, inject. */
void smn_esp_noc_cycle(socmon_esp_soc *soc);
int smn_esp_noc_idle(const esp_noc *noc);
/* Adds the sleeping routers' monitor counts up to cycle soc->cycles: before anyone can read them. */
void smn_esp_noc_settle(socmon_esp_soc *soc);
/* A trace's stall: tile's sink on plane accepts no flit while stopped (flits wait in its router). */
void smn_esp_noc_sink_stop(esp_noc *noc, unsigned plane, unsigned tile, int stopped);

/* Transactions (esp_txn.c). Each returns 1 if it left work in flight whose
 * completion will be reported to act, 0 if it finished at once. */
esp_chain *smn_esp_chain_alloc(socmon_esp_soc *soc, struct esp_act *act);
void smn_esp_chain_free(socmon_esp_soc *soc, esp_chain *ch);
/* The last flit of ch's current hop arrived. */
void smn_esp_chain_arrived(socmon_esp_soc *soc, esp_chain *ch);
int smn_esp_txn_l2_access(socmon_esp_soc *soc, struct esp_act *act, unsigned tile, uint64_t line,
                      int store);
int smn_esp_txn_dma(socmon_esp_soc *soc, struct esp_act *act, unsigned acc_tile, uint64_t line,
                int write, socmon_esp_coherence mode);
int smn_esp_txn_uncached(socmon_esp_soc *soc, struct esp_act *act, unsigned tile, uint64_t line,
                     int store);
/* The memory system's time (esp_mem.c). smn_esp_chain_go: ch's point ch->cur is reached now (its
 * transaction issued, or its previous hop arrived): the tile's work is booked, then the next
 * hop is sent, or the requester told, at once or from the delay heap when the work is done. */
void smn_esp_chain_go(socmon_esp_soc *soc, esp_chain *ch);
/* The chain has no hop left: tells its activity. */
void smn_esp_chain_done(socmon_esp_soc *soc, esp_chain *ch);
socmon_status smn_esp_mem_init(esp_memsys *m, unsigned ntiles);
void smn_esp_mem_destroy(esp_memsys *m);
void smn_esp_mem_clear(esp_memsys *m, unsigned ntiles);
/* Moves on the chains whose work is done by cycle soc->cycles. */
void smn_esp_mem_release(socmon_esp_soc *soc);
/* The first cycle a chain waits for; ESP_NO_CYCLE if none. */
uint64_t smn_esp_mem_next(const esp_memsys *m);
/* Writes one private-cache line back (Put); 1 if a Put was sent. */
int smn_esp_txn_l2_evict(socmon_esp_soc *soc, struct esp_act *act, unsigned tile, unsigned slot);
unsigned smn_esp_home(const socmon_esp_soc *soc, uint64_t line);

/* Activities (esp_engine.c). */
typedef enum { ACT_CPU, ACT_ACC, ACT_FLUSH, ACT_IDLE, ACT_TRAFFIC } esp_act_kind;
typedef enum { PH_TLB, PH_READ, PH_COMPUTE, PH_WRITE, PH_DONE } esp_acc_phase;

typedef struct esp_act {
    esp_act_kind kind;
    unsigned tile;
    int finished;
    uint64_t outstanding;
    uint64_t base;               /* first byte of the buffer */
    /* cpu */
    uint64_t footprint_lines, total, done_n, stores;
    /* acc */
    socmon_esp_coherence mode;
    esp_acc_phase phase;
    uint64_t reads, writes, issued, phase_end;
    /* flush */
    int flush_llc;
    unsigned fslot;              /* the next slot the L2s' walk takes (every L2 at once) */
    /* idle */
    uint64_t until;
    /* acc: cycles counted but not yet added to the tile's TLB, memory and
     * total-cycle monitors (smn_esp_act_settle adds them): one add per cycle
     * here instead of a 64-bit monitor update */
    uint64_t pend_tlb, pend_mem, pend_tot;
    /* Asleep (smn_esp_act_doze): the run loop skips a, and the cycles from sleep_from on count
     * inc_* each when it wakes, at wake_at (ESP_NO_CYCLE: when one of its transactions
     * arrives) or when the engine settles the monitors. idx: a's place in the engine's acts. */
    unsigned idx;
    int asleep;
    uint8_t inc_tlb, inc_mem, inc_tot;
    uint64_t sleep_from, wake_at;
} esp_act;

typedef struct esp_stats_int {
    uint64_t packets[ESP_NPLANES], flits_injected[ESP_NPLANES], flits_ejected[ESP_NPLANES];
    uint64_t flit_hops;          /* router traversals */
    uint64_t dma_lines[4];       /* lines moved by DMA per coherence mode (FULL: via L2) */
    uint64_t l2_accesses, llc_writebacks, llc_flush_writebacks, uncached, invocations;
} esp_stats_int;

/* Cache state of the whole SoC, indexed by tile (NULL where the tile has none). */
typedef struct esp_caches {
    esp_cache *l2;               /* [tile], sets == 0 when absent */
    esp_cache *llc;              /* [tile] */
} esp_caches;

struct esp_spec;
/* Activities (esp_acts.c). */
socmon_status smn_esp_act_start(socmon_esp_soc *soc, const struct esp_spec *s);
void smn_esp_act_step(socmon_esp_soc *soc, esp_act *a);
/* The first cycle at which a needs a step; soc->cycles if it is busy now. */
uint64_t smn_esp_act_next(const socmon_esp_soc *soc, const esp_act *a);
/* Fast-forward of n cycles in which a only waits. */
void smn_esp_act_skip(socmon_esp_soc *soc, esp_act *a, uint64_t n);
/* Adds the cycles a has counted so far to its tile's monitors: before anyone
 * can read them, and before a is freed. */
void smn_esp_act_settle(socmon_esp_soc *soc, esp_act *a);
#define ESP_NO_CYCLE UINT64_MAX
/* After a's step in cycle soc->cycles: if a would only wait and count from the next cycle
 * until an event (a transaction's arrival, the end of its TLB load, compute or idle time),
 * it falls asleep; 1 if it did. */
int smn_esp_act_doze(socmon_esp_soc *soc, esp_act *a);
/* Counts a's sleep up to cycle upto (not included). */
void smn_esp_act_catch_up(esp_act *a, uint64_t upto);
/* Wakes a sleeping a to step in cycle at (esp_engine.c: puts it back in the run loop). */
void smn_esp_act_wake(socmon_esp_soc *soc, esp_act *a, uint64_t at);

/* One cycle of a: the two common ways of only waiting inline (a CPU stalled
 * on a miss; an accelerator with all its DMA lines in flight, which counts
 * a memory and a total cycle), the rest in smn_esp_act_step. */
static inline void esp_act_cycle(socmon_esp_soc *soc, esp_act *a)
{
    if (a->kind == ACT_CPU && a->outstanding)
        return;
    if (a->kind == ACT_ACC && (a->phase == PH_READ || a->phase == PH_WRITE) &&
        a->outstanding >= ESP_ACC_MAX_OUT) {
        a->pend_mem++;
        a->pend_tot++;
        return;
    }
    smn_esp_act_step(soc, a);
}

/* A workload script entry: one activity; entries with the same group start
 * together once every activity of the previous group has finished. */
typedef struct esp_spec {
    unsigned group;
    esp_act_kind kind;
    unsigned ord;                /* cpu or acc ordinal */
    unsigned buf;                /* buffer number: address (buf + 1) << 28 */
    uint64_t a, b, c;            /* cpu: loads, stores, footprint; acc: bytes; idle: cycles */
    socmon_esp_coherence mode;   /* acc */
    int flag;                    /* flush: LLC too */
    const char *phase;           /* static name: the workload's phase that begins with this group */
} esp_spec;

typedef struct esp_engine {
    esp_noc noc;
    esp_caches c;
    esp_memsys ms;
    esp_stats_int st;
    esp_chain *free_chains;
    void **blocks;
    unsigned nblocks;
    esp_act **acts;              /* running activities; chains point at them */
    unsigned nacts, capacts;
    uint64_t *awake;             /* bit i: acts[i] is not asleep (capacts bits) */
    uint64_t wake_next;          /* earliest wake_at of a sleeping activity */
    int oom;                     /* a transaction could not be allocated */
    int reap_due;                /* a finished activity's last transaction arrived: reap it */
    esp_spec *script;
    size_t nscript, capscript, next_spec;
    int script_running;
    uint64_t *op_since;          /* [tile]: cycle the current op point began */
    /* The script's phases begun so far (esp_phases.c); the last runs until t1_ns is set. */
    socmon_phase phases[ESP_MAX_PHASES];
    size_t nphases;
    int phase_open;
    unsigned *cpu, ncpu, *acc, nacc, *mem, nmem;
    struct esp_traffic *traffic; /* the noc-trace or noc workload's packets and results, or NULL */
} esp_engine;

/* Buffer addresses used by workloads and primitives. */
#define ESP_BUF_ADDR(b) (((uint64_t)(b) + 1) << 28)
#define ESP_BUF_MAX (UINT64_C(1) << 28)

/* Workload phases (esp_phases.c): a group whose spec names a phase begins it at the current
 * cycle and ends the one before; the script's end ends the last. */
void smn_esp_phase_begin(socmon_esp_soc *soc, const char *name);
void smn_esp_phase_end(socmon_esp_soc *soc);

/* Traffic you choose (esp_traffic.c): the workloads noc-trace:FILE and noc:ARGS. build
 * parses them for this SoC and adds their one activity (ACT_TRAFFIC) to the script; 0 if
 * name is neither (then *handled is 0). */
socmon_status smn_esp_traffic_build(socmon_esp_soc *soc, const char *name, int *handled);
void smn_esp_traffic_free(esp_engine *e);
void smn_esp_traffic_step(socmon_esp_soc *soc, esp_act *a);
/* The next cycle the traffic activity has something to do (a packet to offer, a stall to
 * begin or end), ESP_NO_CYCLE if none. */
uint64_t smn_esp_traffic_next(const socmon_esp_soc *soc);
/* A traffic packet's tail left its destination in cycle soc->cycles. */
void smn_esp_traffic_arrived(socmon_esp_soc *soc, const esp_chain *ch);
/* 1 if the traffic stopped offering because 2^20 packets waited at their sources. */
int smn_esp_traffic_overflow(const socmon_esp_soc *soc);

/* Workload scripts (esp_workloads.c). */
socmon_status smn_esp_script_build(socmon_esp_soc *soc, const char *name);
socmon_status smn_esp_script_add(esp_engine *e, const esp_spec *s);

#endif
