# papi: one non-recursive Makefile.
#
#   make                  build build/libpapi.so.7.{0,1,2}, build/libpapi.a, build/libsde.so.1.0,
#                         build/libsde.a and build/papi
#   make check            install missing Debian packages, build, run every test
#   make demo             install missing Debian packages, build, run the main job
#   make install          PREFIX=/usr/local DESTDIR= (binary, classic names, libraries,
#                         headers, papi.pc and papi-7.{0,1,2}.pc, man pages, completions)
#   make check-pmu        cross-build for aarch64, boot Debian's arm64 kernel under
#                         QEMU, run the tests that need a hardware PMU on its
#                         emulated PMU (PMU_CPU=neoverse-n1|a64fx|max|...)
#   make uninstall / clean / bench / compat / compat-shared / compat-distro / check-sanitize
#
# Knobs: BUILD=dir (object tree), V=1 (full commands), WERROR=1 (warnings fail),
# BIN_STATIC=0 (papi linked dynamically; kept by the build tree),
# CFLAGS/CPPFLAGS/LDFLAGS (yours are respected and come last), CC (the target's
# compiler) and HOSTCC (builds what runs during the build): cross-compile with
#   make CC=aarch64-linux-gnu-gcc BUILD=build-arm64 all tests
#
# New files need no edit here: libpapi/N-layer/*.c, libpapi/sde/*.c, cmd/*.c,
# events/*.csv and events/*.groups, and test programs
# test/{unit,api,sim,pmu,oracle}/t_*.c are found by wildcard.  In a test folder,
# the .c files not named t_* are support code linked into each of its tests.

# Plain `make` builds what `make all` builds, whatever rule comes first below.
.DEFAULT_GOAL := all

VERSION     := 0.1.0
BUILD       ?= build
PREFIX      ?= /usr/local
DESTDIR     ?=
bindir      ?= $(PREFIX)/bin
libexecdir  ?= $(PREFIX)/libexec
libdir      ?= $(PREFIX)/lib
includedir  ?= $(PREFIX)/include
mandir      ?= $(PREFIX)/share/man
datadir     ?= $(PREFIX)/share

CC          ?= cc
HOSTCC      ?= cc
AR          ?= ar
FC          ?= gfortran
CFLAGS      ?= -O2 -g
WARN        := -Wall -Wextra -Wshadow -Wno-unused-parameter $(if $(WERROR),-Werror)
ALL_CPPFLAGS = -D_GNU_SOURCE -Ilibpapi -I$(BUILD)/gen -Itest -DPAPI_TOOL_VERSION='"$(VERSION)"' $(CPPFLAGS)
ALL_CFLAGS   = -std=gnu11 -pthread -fno-strict-aliasing $(WARN) $(CFLAGS)
LIBS         = -pthread -lm -lrt

ifeq ($(V),1)
Q :=
say = @:
else
Q := @
say = @printf '  %-6s %s\n'
endif

# Classic PAPI utility names that install as links to the one binary.
CLASSIC := papi_avail papi_native_avail papi_event_chooser papi_decode papi_cost \
           papi_clockres papi_mem_info papi_command_line papi_component_avail \
           papi_hardware_avail papi_error_codes papi_version

LIB_SRC  := $(sort $(wildcard libpapi/[0-9]-*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/libpapi/3-naming/events_tbl.o \
            $(BUILD)/libpapi/3-naming/groups_tbl.o
INT_A    := $(BUILD)/libpapi-internal.a
CMD_SRC  := $(sort $(wildcard cmd/*.c cmd/stat/[0-9]-*/*.c))
CMD_OBJ  := $(CMD_SRC:%.c=$(BUILD)/%.o)
EVENTS   := $(sort $(wildcard events/*.csv))
GROUPS   := $(sort $(wildcard events/*.groups))

TEST_DIRS := unit api sim pmu oracle
define test_dir
$(1)_TESTS   := $$(sort $$(wildcard test/$(1)/t_*.c))
$(1)_SUPPORT := $$(filter-out $$($(1)_TESTS),$$(sort $$(wildcard test/$(1)/*.c)))
$(1)_BINS    := $$($(1)_TESTS:test/%.c=$(BUILD)/test/%)
$(1)_SOBJ    := $$($(1)_SUPPORT:%.c=$(BUILD)/%.o)
$(BUILD)/test/$(1)/t_%: $(BUILD)/test/$(1)/t_%.o $$($(1)_SOBJ) $(INT_A)
	$$(say) LD $$@
	$$(Q)$$(CC) $$(ALL_CFLAGS) $$(LDFLAGS) -o $$@ $$^ $$(LIBS)
endef
$(foreach d,$(TEST_DIRS),$(eval $(call test_dir,$(d))))
TEST_BINS := $(foreach d,$(TEST_DIRS),$($(d)_BINS))

# t_oracle_papi7.c once more, against Debian's PAPI 7.0 (/usr/include/papi.h,
# -lpapi), where it is installed for CC's target: t_oracle_papi7 runs it and
# compares their counts.
PAPI7_DEB := $(if $(wildcard /usr/include/papi.h),$(shell t=$$(mktemp -d) && \
             echo 'int main(void){return 0;}' | $(CC) -x c - -o $$t/a -lpapi 2>/dev/null && echo yes; rm -rf $$t))
ifeq ($(PAPI7_DEB),yes)
$(BUILD)/test/oracle/t_oracle_papi7_debian: test/oracle/t_oracle_papi7.c test/oracle/rawpe.c test/oracle/rawpe.h
	@mkdir -p $(dir $@)
	$(say) LD $@
	$(Q)$(CC) -D_GNU_SOURCE -DORACLE_PAPI7 -Itest $(ALL_CFLAGS) $(LDFLAGS) -o $@ \
	  test/oracle/t_oracle_papi7.c test/oracle/rawpe.c -lpapi $(LIBS)
TEST_BINS += $(BUILD)/test/oracle/t_oracle_papi7_debian
endif

# test/sde: libsde's tests. t_sde_lib links libsde.a alone (a library's view:
# nothing of libpapi); the others count through PAPI as well.
SDE_TESTS := $(sort $(wildcard test/sde/t_*.c))
SDE_BINS  := $(SDE_TESTS:test/%.c=$(BUILD)/test/%)
$(BUILD)/test/sde/t_sde_lib: $(BUILD)/test/sde/t_sde_lib.o $(BUILD)/libsde.a
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)
$(BUILD)/test/sde/t_%: $(BUILD)/test/sde/t_%.o $(BUILD)/libsde.a $(INT_A)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)
TEST_BINS += $(SDE_BINS)

# The region API's OpenMP test is built with the compiler's OpenMP support.
$(BUILD)/test/api/t_hl_omp.o $(BUILD)/test/api/t_hl_omp: private ALL_CFLAGS += -fopenmp
# t_noalloc counts the allocator calls of everything it links.
$(BUILD)/test/api/t_noalloc: private ALL_CFLAGS += $(foreach f,malloc calloc realloc strdup strndup posix_memalign,-Wl,--wrap=$(f))

.PHONY: all check demo deps tests install uninstall clean bench compat compat-shared compat-distro check-sanitize
.PHONY: check-tsan check-pmu check-faults fuzz fuzz-run
.SECONDARY:

all: $(BUILD)/libpapi.a $(BUILD)/libpapi.so $(BUILD)/papi $(BUILD)/install/papi.pc $(BUILD)/papi-uninstalled.pc \
     $(BUILD)/libsde.a $(BUILD)/libsde.so

# Library modules include their own layer's header, never internal.h (which
# gathers every layer for cmd/ and the tests): internal.h refuses them.
$(LIB_OBJ): ALL_CPPFLAGS += -DPAPI_IN_LIBRARY

# The library's own code-generation flags (see "the library, three ways"),
# and a note of how its archive is made. When either changes, the objects and
# everything made from them are rebuilt: BUILD/cflags holds the last ones.
# (Not your CFLAGS: make install after make check-sanitize reuses its objects.)
# TLS descriptors where the compiler has them (gcc on x86_64; aarch64 uses
# them by default): in libpapi.so a thread-local (the cached thread id, a
# thread's registry entry, its failure reason) then costs a load, not a call
# of __tls_get_addr, and the library can still be dlopen'ed.
TLS_DESC    := $(shell $(CC) -mtls-dialect=gnu2 -fPIC -E -x c /dev/null >/dev/null 2>&1 && echo -mtls-dialect=gnu2)
LIB_CFLAGS  := -fPIC -fvisibility=hidden -fno-semantic-interposition $(TLS_DESC)
FLAGS_STAMP := $(LIB_CFLAGS) (libpapi.a: one object with libpfm4 and libcsv, only the API global)$(if $(APPIO), APPIO)
ifneq ($(file <$(BUILD)/cflags),$(FLAGS_STAMP))
$(shell mkdir -p $(BUILD))
$(file >$(BUILD)/cflags,$(FLAGS_STAMP))
endif
# The papi binary is static unless BIN_STATIC=0 (see PAPI_DYN below); the
# sanitizers' runtimes cannot be linked statically, so their builds choose
# 0. A build tree keeps its choice in BUILD/bin_static, so that make install
# after make check-sanitize (no CFLAGS) installs that build as it is.
BIN_STATIC_SAVED := $(file <$(BUILD)/bin_static)
BIN_STATIC ?= $(or $(BIN_STATIC_SAVED),$(if $(findstring -fsanitize,$(CFLAGS) $(LDFLAGS)),0,1))
ifneq ($(BIN_STATIC_SAVED),$(BIN_STATIC))
$(shell mkdir -p $(BUILD))
$(file >$(BUILD)/bin_static,$(BIN_STATIC))
endif

$(BUILD)/%.o: %.c $(BUILD)/cflags
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/libpapi/3-naming/%_tbl.o: $(BUILD)/gen/%_tbl.c $(BUILD)/cflags
	$(say) CC $<
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# The event tables and metric groups in events/ become C, so nothing is read
# from disk at run time.
$(BUILD)/gen/events_tbl.c: libpapi/gen_events.sh $(EVENTS)
	@mkdir -p $(dir $@)
	$(say) GEN $@
	$(Q)sh libpapi/gen_events.sh $(EVENTS) > $@.tmp && mv $@.tmp $@
$(BUILD)/gen/groups_tbl.c: libpapi/gen_events.sh $(GROUPS)
	@mkdir -p $(dir $@)
	$(say) GEN $@
	$(Q)sh libpapi/gen_events.sh -n groups_files $(GROUPS) > $@.tmp && mv $@.tmp $@

# ---- Fortran: fpapi.h and f90papi.h are generated from papi.h (values
# computed by the C compiler) so they never drift; libpapi/fortran.c holds the
# PAPIF_* calls. Installed with the C headers. The generator's helper program
# runs during the build, so HOSTCC compiles it: papi.h's constants are plain
# integers, the same for every target.
FORTRAN_HEADERS := $(BUILD)/gen/fpapi.h $(BUILD)/gen/f90papi.h
all: $(FORTRAN_HEADERS)
$(BUILD)/gen/f90papi.h: $(BUILD)/gen/fpapi.h
$(BUILD)/gen/fpapi.h: libpapi/gen_fortran.sh libpapi/papi.h libpapi/papiStdEventDefs.h
	$(say) GEN $@
	$(Q)sh libpapi/gen_fortran.sh "$(HOSTCC)" libpapi $(BUILD)/gen

# ---- the library, three ways, from one compilation. Every object is
# position-independent and hides the names papi.h does not declare (papi.h
# marks its declarations visible, fortran.c its PAPIF_* calls).
#  libpapi.so.7.2   the shared library, PAPI 7.2's SONAME (libpapi.so names
#                   it): a program built against PAPI 7.2 runs on it
#                   unchanged. It exports only the public API and needs
#                   libpfm.so.4 and libcsv.so.3. Its own calls of PAPI_*
#                   functions bind within it (no PLT). libpapi.so.7.0 and
#                   .7.1, the same for PAPI 7.0's and 7.1's programs, are
#                   made below ("one library, three releases").
#  libpapi.a        static, also into a shared object (position-independent):
#                   one object, libpapi.o, the modules partially linked with
#                   libpfm4 and libcsv (Debian's libpfm.a and libcsv.a), every
#                   name but the public API's then made local, so that no
#                   internal name (sys, es_lookup, pfm_initialize, csv_init,
#                   ...) can clash with a program's own or with a libpfm4 the
#                   program links itself. A program links it alone:
#                   cc prog.c libpapi.a -pthread -lm. Debian's libpfm.a is
#                   compiled for executables (-fPIE), whose only reads a
#                   shared object cannot make are pfm_initialize's of stderr
#                   and stdout: they are pointed at copies of those two
#                   (libpapi/abi/archive.c). It serves every release: a
#                   program built at -DPAPI_ABI_LEVEL=70 or 71 calls its
#                   level's names of the calls whose ABI changed (below).
#  libpapi-internal.a  the modules as compiled, internal names and all, with
#                   libpfm.a and libcsv.a: what the papi binary (static, not
#                   PIE, for its start-up) and the test programs link. Never
#                   installed.
SO_NAME  := libpapi.so.7.2
SO_FILE  := libpapi.so.7.2.0.0
SO_LEVELS := 7.0 7.1 7.2
OLD_LEVELS := 7.0 7.1
LIB_DEPS := -lpfm -lcsv
$(LIB_OBJ): ALL_CFLAGS += $(LIB_CFLAGS)

OBJCOPY ?= $(shell $(CC) -print-prog-name=objcopy)
NM      ?= $(shell $(CC) -print-prog-name=nm)
# The static libpfm4 and libcsv that libpapi.a and libpapi-internal.a carry
# (STATIC_DEPS: a shell command that sets $pfm and $csv, or says what to install).
STATIC_DEPS = pfm=$$($(CC) -print-file-name=libpfm.a); csv=$$($(CC) -print-file-name=libcsv.a); \
	  for a in "$$pfm" "$$csv"; do [ -f "$$a" ] || { echo "missing $$a: run 'make deps' (libpfm4-dev, libcsv-dev)" >&2; exit 1; }; done
# libpfm4 and libcsv whole, with pfm_initialize's reads of stderr and stdout
# pointed at archive.c's copies.
$(BUILD)/abi/pfmcsv.o: $(BUILD)/cflags
	@mkdir -p $(dir $@)
	$(say) LD $@
	$(Q)$(STATIC_DEPS); $(CC) -r -nostdlib -o $@.tmp -Wl,--whole-archive "$$pfm" "$$csv"
	$(Q)$(OBJCOPY) --redefine-sym stderr=archive_pfm_stderr --redefine-sym stdout=archive_pfm_stdout $@.tmp $@ && \
	  rm -f $@.tmp
$(BUILD)/abi/archive.o: libpapi/abi/archive.c $(BUILD)/cflags
	@mkdir -p $(dir $@)
	$(say) CC $@
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LIB_CFLAGS) -MMD -MP -c -o $@ $<
# The archive serves every release: beside the modules (7.2's calls), the
# older releases' calls whose ABI changed, under the names papi.h gives a
# program built at that level (PAPI_library_init_v70, ...; see
# libpapi/abi/older.c).
$(BUILD)/abi/older%_a.o: libpapi/abi/older.c $(BUILD)/cflags
	@mkdir -p $(dir $@)
	$(say) CC $@
	$(Q)$(CC) $(ALL_CPPFLAGS) -DPAPI_OLDER_LEVEL=$* -DPAPI_OLDER_IN_ARCHIVE $(ALL_CFLAGS) $(LIB_CFLAGS) -MMD -MP -c -o $@ $<
# The public API is what these leave global once their hidden names are
# local (papi.h marks it visible): that list is all libpapi.o keeps global.
ARCHIVE_OBJ = $(LIB_OBJ) $(foreach l,$(OLD_LEVELS),$(BUILD)/abi/older$(subst .,,$(l))_a.o)
$(BUILD)/libpapi.o: $(ARCHIVE_OBJ) $(BUILD)/abi/archive.o $(BUILD)/abi/pfmcsv.o
	$(say) LD $@
	$(Q)$(CC) -r -nostdlib -o $@.own $(ARCHIVE_OBJ)
	$(Q)$(OBJCOPY) --localize-hidden $@.own
	$(Q)$(NM) -g --defined-only $@.own | awk 'NF == 3 { print $$3 }' > $@.api
	$(Q)$(CC) -r -nostdlib -o $@.tmp $@.own $(BUILD)/abi/archive.o $(BUILD)/abi/pfmcsv.o
	$(Q)$(OBJCOPY) --keep-global-symbols=$@.api $@.tmp $@ && rm -f $@.own $@.api $@.tmp
$(BUILD)/libpapi.a: $(BUILD)/libpapi.o
	$(say) AR $@
	$(Q)rm -f $@ && $(AR) rcs $@ $<

$(BUILD)/$(SO_FILE): $(LIB_OBJ)
	$(say) LD $@
	$(Q)$(CC) -shared -Wl,-soname,$(SO_NAME) -Wl,--no-undefined -Wl,-Bsymbolic-functions $(ALL_CFLAGS) $(LDFLAGS) \
	  -o $@ $(LIB_OBJ) $(LIB_DEPS) $(LIBS)
$(BUILD)/$(SO_NAME): $(BUILD)/$(SO_FILE)
	$(Q)ln -sf $(SO_FILE) $@
$(BUILD)/libpapi.so: $(BUILD)/$(SO_NAME)
	$(Q)ln -sf $(SO_NAME) $@

# ---- one library, three releases: libpapi.so.7.0 and libpapi.so.7.1 (see
# libpapi/README.md). The modules are compiled once, at PAPI 7.2's level.
# For an older release the same objects are linked with the calls whose ABI
# changed in 7.2 (ABI_CHANGED) renamed papi72_* by objcopy, so that the
# library's own calls still reach the 7.2 code, and with a translation object
# (libpapi/abi/older.c, compiled once per release) that defines those calls
# at the older release's ABI over the papi72_* ones. The Fortran interface
# keeps the older release's PAPI_library_init and PAPI_enum_event
# (ABI_PASSED): its callers pass that release's numbers straight through.
ABI_CHANGED := PAPI_library_init PAPI_get_component_info PAPI_get_opt PAPI_get_cmp_opt \
               PAPI_get_event_info PAPI_set_event_info PAPI_enum_event PAPI_enum_cmp_event \
               PAPI_strerror
ABI_PASSED  := PAPI_library_init PAPI_enum_event PAPI_enum_cmp_event
ABI_FORTRAN := $(BUILD)/libpapi/6-api/fortran.o
ABI_CORE    := $(filter-out $(ABI_FORTRAN),$(LIB_OBJ))
abi_map      = for f in $(1); do echo "$$f papi72_$${f\#PAPI_}"; done

$(BUILD)/abi/core.o: $(ABI_CORE) Makefile
	@mkdir -p $(dir $@)
	$(say) LD $@
	$(Q)$(CC) -r -nostdlib -o $@.tmp $(ABI_CORE)
	$(Q)$(call abi_map,$(ABI_CHANGED)) > $@.map
	$(Q)$(OBJCOPY) --redefine-syms=$@.map $@.tmp $@ && rm -f $@.tmp $@.map
$(BUILD)/abi/fortran.o: $(ABI_FORTRAN) Makefile
	@mkdir -p $(dir $@)
	$(Q)$(call abi_map,$(filter-out $(ABI_PASSED),$(ABI_CHANGED))) > $@.map
	$(Q)$(OBJCOPY) --redefine-syms=$@.map $< $@ && rm -f $@.map

define old_library
$(BUILD)/abi/older$(subst .,,$(1)).o: libpapi/abi/older.c $(BUILD)/cflags
	@mkdir -p $$(dir $$@)
	$$(say) CC $$@
	$$(Q)$$(CC) $$(ALL_CPPFLAGS) -DPAPI_OLDER_LEVEL=$(subst .,,$(1)) $$(ALL_CFLAGS) $$(LIB_CFLAGS) -MMD -MP -c -o $$@ $$<
$(BUILD)/libpapi.so.$(1).0.0: $(BUILD)/abi/core.o $(BUILD)/abi/fortran.o $(BUILD)/abi/older$(subst .,,$(1)).o
	$$(say) LD $$@
	$$(Q)$$(CC) -shared -Wl,-soname,libpapi.so.$(1) -Wl,--no-undefined -Wl,-Bsymbolic-functions $$(ALL_CFLAGS) \
	  $$(LDFLAGS) -o $$@ $$^ $$(LIB_DEPS) $$(LIBS)
$(BUILD)/libpapi.so.$(1): $(BUILD)/libpapi.so.$(1).0.0
	$$(Q)ln -sf libpapi.so.$(1).0.0 $$@
all: $(BUILD)/libpapi.so.$(1)
endef
$(foreach l,$(OLD_LEVELS),$(eval $(call old_library,$(l))))

$(INT_A): $(LIB_OBJ)
	$(say) AR $@
	$(Q)rm -f $@.own $@.tmp
	$(Q)$(AR) rcs $@.own $(LIB_OBJ)
	$(Q)$(STATIC_DEPS); \
	  printf 'CREATE %s\nADDLIB %s\nADDLIB %s\nADDLIB %s\nSAVE\nEND\n' $@.tmp $@.own "$$pfm" "$$csv" | $(AR) -M
	$(Q)mv $@.tmp $@ && rm -f $@.own

# ---- appio: the appio component counts the program's I/O calls where
# libpapi defines read, write, open, close, lseek, select, recv, fread and
# fwrite in the C library's place. A library that replaces the C library in
# every program that links it is no default: make APPIO=1 builds it so
# (libpapi/1-state/interpose.c); otherwise appio is disabled and says how.
# The appio tests link an interposing copy of that one module before the
# archive, whose own copy they then never pull.
APPIO ?=
$(BUILD)/libpapi/1-state/interpose.o: ALL_CPPFLAGS += $(if $(APPIO),-DPAPI_APPIO_INTERPOSE)
$(BUILD)/appio/interpose.o: libpapi/1-state/interpose.c $(BUILD)/cflags
	@mkdir -p $(dir $@)
	$(say) CC $@
	$(Q)$(CC) $(ALL_CPPFLAGS) -DPAPI_IN_LIBRARY -DPAPI_APPIO_INTERPOSE $(ALL_CFLAGS) $(LIB_CFLAGS) -MMD -MP -c -o $@ $<
APPIO_TESTS := $(BUILD)/test/api/t_cmp_appio $(BUILD)/test/api/t_cmp_hl
# and library.bats a shared library as APPIO=1 makes it (never installed)
APPIO_SO_OBJ := $(filter-out $(BUILD)/libpapi/1-state/interpose.o,$(LIB_OBJ)) $(BUILD)/appio/interpose.o
$(BUILD)/appio/libpapi.so.7.2: $(APPIO_SO_OBJ)
	$(say) LD $@
	$(Q)$(CC) -shared -Wl,-soname,$(SO_NAME) -Wl,--no-undefined -Wl,-Bsymbolic-functions $(ALL_CFLAGS) $(LDFLAGS) \
	  -o $@ $(APPIO_SO_OBJ) $(LIB_DEPS) $(LIBS)
$(BUILD)/appio/libpapi.so: $(BUILD)/appio/libpapi.so.7.2
	$(Q)ln -sf libpapi.so.7.2 $@
tests: $(BUILD)/appio/libpapi.so
$(APPIO_TESTS): $(BUILD)/test/api/%: $(BUILD)/test/api/%.o $(api_SOBJ) $(BUILD)/appio/interpose.o $(INT_A)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

# ---- libsde: software-defined events (PAPI 7.0's libsde.so.1). A library
# that registers counters links it (-lsde) and nothing of libpapi; libpapi's
# sde component finds it in the process (weak references, else dlsym), so
# neither library needs the other. Built like libpapi: position-independent,
# exporting only sde_lib.h's calls and the sde_ti_* tool interface; libsde.a
# is one object with its internal names made local.
SDE_SRC      := $(sort $(wildcard libpapi/sde/*.c))
SDE_OBJ      := $(SDE_SRC:%.c=$(BUILD)/%.o)
SDE_SO_NAME  := libsde.so.1
SDE_SO_FILE  := libsde.so.1.0
$(SDE_OBJ): ALL_CFLAGS += $(LIB_CFLAGS)

$(BUILD)/libsde.o: $(SDE_OBJ)
	$(say) LD $@
	$(Q)$(CC) -r -nostdlib -o $@.tmp $(SDE_OBJ)
	$(Q)$(OBJCOPY) --localize-hidden $@.tmp $@ && rm -f $@.tmp
$(BUILD)/libsde.a: $(BUILD)/libsde.o
	$(say) AR $@
	$(Q)rm -f $@ && $(AR) rcs $@ $<
$(BUILD)/$(SDE_SO_FILE): $(SDE_OBJ)
	$(say) LD $@
	$(Q)$(CC) -shared -Wl,-soname,$(SDE_SO_NAME) -Wl,--no-undefined -Wl,-Bsymbolic-functions $(ALL_CFLAGS) \
	  $(LDFLAGS) -o $@ $(SDE_OBJ) -pthread
$(BUILD)/$(SDE_SO_NAME): $(BUILD)/$(SDE_SO_FILE)
	$(Q)ln -sf $(SDE_SO_FILE) $@
$(BUILD)/libsde.so: $(BUILD)/$(SDE_SO_NAME)
	$(Q)ln -sf $(SDE_SO_NAME) $@

# Libraries only the papi binary links (never libpapi.a's users).
# papi hl-report reads the region API's JSON reports with jansson, linked
# statically like libpfm4 and libcsv so that only libc stays dynamic: every
# shared library is loaded and relocated at each start of `papi stat`.
JANSSON_A := $(shell $(CC) -print-file-name=libjansson.a)
BIN_LIBS += $(if $(filter /%,$(JANSSON_A)),$(JANSSON_A),-ljansson)
# sqrt() is the only libm call; without errno it is one instruction, and
# --as-needed then drops libm from the binary.
$(CMD_OBJ): ALL_CFLAGS += -fno-math-errno
# A dynamically linked papi loads --sde libraries itself (see PAPI_DYN).
ifneq ($(BIN_STATIC),1)
$(BUILD)/cmd/native.o: ALL_CPPFLAGS += -DPAPI_CMD_DLOPEN
endif
$(BUILD)/cmd/native.o $(BUILD)/papi: $(BUILD)/bin_static
# papi stat's stages (cmd/stat/N-stage/) include cmd/'s helpers, the
# pipeline's data (stat.h) and the base every stage may use.
$(filter $(BUILD)/cmd/stat/%,$(CMD_OBJ)): ALL_CPPFLAGS += -Icmd -Icmd/stat -Icmd/stat/1-base
BIN_LDFLAGS_ASNEEDED = -Wl,--as-needed
# The papi binary is static: loading and binding the shared libc took
# ~1.3 ms of each `papi stat` (a third of what it adds to the command).
# Only `papi native --sde FILE` needs the dynamic loader (FILE links libsde
# and libc): it runs a dynamically linked papi instead, $(PAPI_DYN), which
# make install puts in $(libexecdir)/papi/. Neither is position-independent:
# libpfm4's tables hold ~42k pointers that a PIE relocates (and copies page
# by page) at every start, ~0.5 ms of each start. BIN_STATIC=0 links papi
# dynamically (the sanitizers' builds do: their runtimes cannot be static).
BIN_DYN_LDFLAGS ?= -no-pie
BIN_LDFLAGS ?= $(if $(filter 1,$(BIN_STATIC)),-static,$(BIN_DYN_LDFLAGS))
PAPI_DYN = $(if $(filter 1,$(BIN_STATIC)),$(BUILD)/libexec/papi/papi)

$(BUILD)/papi: $(CMD_OBJ) $(INT_A)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(BIN_LDFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJ) $(INT_A) $(BIN_LDFLAGS_ASNEEDED) $(LIBS) $(BIN_LIBS)

# Its native.c is built to load libraries (PAPI_CMD_DLOPEN); the static
# papi's is not, and so does not link glibc's static dlopen.
PAPI_DYN_OBJ = $(filter-out $(BUILD)/cmd/native.o,$(CMD_OBJ)) $(BUILD)/cmd/native_dlopen.o
$(BUILD)/cmd/native_dlopen.o: cmd/native.c $(BUILD)/cflags
	@mkdir -p $(dir $@)
	$(say) CC '$< (dlopen)'
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -fno-math-errno -DPAPI_CMD_DLOPEN -MMD -MP -c -o $@ $<
$(BUILD)/libexec/papi/papi: $(PAPI_DYN_OBJ) $(INT_A)
	$(say) LD $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) $(BIN_DYN_LDFLAGS) $(LDFLAGS) -o $@ $(PAPI_DYN_OBJ) $(INT_A) $(BIN_LDFLAGS_ASNEEDED) $(LIBS) $(BIN_LIBS)
all: $(PAPI_DYN)

# papi.pc: make install writes it for its PREFIX; BUILD/install/papi.pc holds
# the same text for the last make's PREFIX (not BUILD itself, where a
# PKG_CONFIG_PATH=BUILD would find it and its prefix), rewritten whenever
# PREFIX, libdir or includedir change from one make run to the next. It names
# its directories relative to ${prefix} so pkg-config --define-prefix works.
# Its Version is the API level, PAPI 7.2's, which is what pkg-config users
# ask for (papi >= 6.0); papi's own version is in the description.
# papi-7.0.pc, papi-7.1.pc and papi-7.2.pc name one release each, as
# distributions' papi-7.0.pc does: a program built with papi-7.0 gets papi.h
# at that level (-DPAPI_ABI_LEVEL=70) and links libpapi.so.7.0 by its file
# name, so that `pkg-config papi-7.0` finds this PAPI, not another.
API_VERSION := 7.2.0.0
PC_LEVELS   := 7.0 7.1 7.2
PC_VARS := $(PREFIX)|$(libdir)|$(includedir)
$(BUILD)/pc-vars: FORCE
	@mkdir -p $(dir $@)
	@echo '$(PC_VARS)' | cmp -s - $@ || echo '$(PC_VARS)' > $@
FORCE:
.PHONY: FORCE

# pc_text NAME,VERSION,LIBS,CFLAGS: the text of one installed .pc file.
pc_text = printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(patsubst $(PREFIX)/%,$${prefix}/%,$(libdir))' \
	  'includedir=$(patsubst $(PREFIX)/%,$${prefix}/%,$(includedir))' '' \
	  'Name: $(1)' 'Description: Performance Application Programming Interface on Linux perf_event (papi $(VERSION))' \
	  'Version: $(2)' 'Libs: -L$${libdir} $(3)' 'Libs.private: $(LIBS)' \
	  'Cflags: -I$${includedir}$(4)'
# pc_libs L, pc_cflags L: what papi-L.pc adds (the newest is papi.pc's)
pc_newest = $(filter $(API_VERSION),$(1).0.0)
pc_libs   = $(if $(call pc_newest,$(1)),-lpapi,-l:libpapi.so.$(1))
pc_cflags = $(if $(call pc_newest,$(1)),, -DPAPI_ABI_LEVEL=$(subst .,,$(1)))
pc_level  = papi-$(1),$(1).0.0,$(call pc_libs,$(1)),$(call pc_cflags,$(1))
PC_TEXT = $(call pc_text,papi,$(API_VERSION),-lpapi,)
$(BUILD)/install/papi.pc: Makefile $(BUILD)/pc-vars
	@mkdir -p $(dir $@)
	$(Q)$(PC_TEXT) > $@

# papi-uninstalled.pc: the build tree itself, which pkg-config prefers to any
# installed papi.pc once BUILD is on PKG_CONFIG_PATH. Its paths are absolute,
# and programs linked with it find BUILD's libpapi.so.7.2 at run time
# (rpath), never another PAPI's. (A papi.pc that older builds left in BUILD
# goes, for the same reason.) papi-7.0-uninstalled.pc and the others do the
# same for one release.
pc_uninst = printf '%s\n' 'srcdir=$(CURDIR)' 'builddir=$(abspath $(BUILD))' '' \
	  'Name: $(1)' 'Description: Performance Application Programming Interface on Linux perf_event (papi $(VERSION), build tree)' \
	  'Version: $(2)' 'Libs: -L$${builddir} -Wl,-rpath,$${builddir} $(3)' \
	  'Libs.private: $(LIBS)' 'Cflags: -I$${srcdir}/libpapi -I$${builddir}/gen$(4)'
$(BUILD)/papi-uninstalled.pc: Makefile
	@mkdir -p $(dir $@)
	$(Q)rm -f $(BUILD)/papi.pc
	$(Q)$(call pc_uninst,papi,$(API_VERSION),-lpapi,) > $@
define pc_files
$(BUILD)/papi-$(1)-uninstalled.pc: Makefile
	$$(Q)$$(call pc_uninst,$(call pc_level,$(1))) > $$@
all: $(BUILD)/papi-$(1)-uninstalled.pc
endef
$(foreach l,$(PC_LEVELS),$(eval $(call pc_files,$(l))))

tests: all $(TEST_BINS)

# ---- test programs the bats tests run (test/cli/*.c, e.g. papi stat's
# multi-threaded workload): plain programs, built with the tests.
CLI_HELPERS := $(patsubst test/cli/%.c,$(BUILD)/test/cli/%,$(wildcard test/cli/*.c))
$(BUILD)/test/cli/%: test/cli/%.c
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIBS)
tests: $(CLI_HELPERS)

deps:
	$(Q)sh test/tools/deps.sh

# The ARM preset tables can only be checked against libpfm4's arm64 tables, which
# an x86 libpfm4 lacks: make check also cross-builds the table tests for
# aarch64 into $(BUILD)/aarch64, and run-tests.sh runs them under qemu-user.
CROSS_CC    ?= aarch64-linux-gnu-gcc
CROSS_TESTS := $(BUILD)/aarch64/test/unit/t_event_tables $(BUILD)/aarch64/test/api/t_presets_parity \
               $(BUILD)/aarch64/test/unit/t_group_tables
check: deps
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)$(MAKE) --no-print-directory CC=$(CROSS_CC) BUILD=$(BUILD)/aarch64 $(CROSS_TESTS)
	$(Q)sh test/tools/run-tests.sh $(BUILD)

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh test/tools/demo.sh $(BUILD)

# The bats tests compile programs against build-san/libpapi.a: CC links the
# sanitizer runtimes (no shift check: PAPI 7's header macros shift into the sign bit).
check-sanitize: deps
	$(Q)$(MAKE) --no-print-directory BUILD=build-san \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" tests
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  CC="$(CC) -fsanitize=address,undefined -fno-sanitize=shift" sh test/tools/run-tests.sh build-san

# A real kernel PMU driver: the aarch64 build in $(PMU_BUILD), run in a QEMU
# guest by test/tools/check-pmu.sh (its knobs: PMU_CPU, PMU_SMP, PMU_TIMEOUT,
# TESTS). The tests in test/pmu skip elsewhere for want of a PMU.
PMU_BUILD ?= build-arm64
check-pmu:
	$(Q)sh test/tools/deps.sh pmu
	$(Q)$(MAKE) --no-print-directory CC=$(CROSS_CC) BUILD=$(PMU_BUILD) all tests
	$(Q)CROSS_CC=$(CROSS_CC) sh test/tools/check-pmu.sh $(PMU_BUILD)

# Injected faults at every occurrence of every call (make check's
# test/cli/faults.bats fails each call's first and last): papi stat,
# avail, native and a static libpapi client under strace's fault injection.
check-faults: deps all
	$(Q)FAULT_N=0 TESTS=test/cli/faults.bats PAPI_TEST_USER= TEST_VERBOSE=1 sh test/tools/run-tests.sh $(BUILD)

# ThreadSanitizer: the threaded tests (test/api/t_threads_*.c) in build-tsan.
TSAN_BINS = $(patsubst test/%.c,build-tsan/test/%,$(wildcard test/api/t_threads_*.c))
check-tsan: deps
	$(Q)$(MAKE) --no-print-directory BUILD=build-tsan \
	  CFLAGS="-O1 -g -fsanitize=thread -fno-omit-frame-pointer" LDFLAGS="-fsanitize=thread" \
	  build-tsan/libpapi-internal.a $(TSAN_BINS)
	$(Q)TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 TESTS=/t_threads \
	  sh test/tools/run-tests.sh build-tsan

# libFuzzer targets (clang): test/fuzz/fz_<name>.c, seeds in test/fuzz/<name>/.
FUZZ_SRC   = $(sort $(wildcard test/fuzz/fz_*.c))
FUZZ_BINS  = $(FUZZ_SRC:test/fuzz/%.c=build-fuzz/%)
FUZZ_SECONDS ?= 30
fuzz: deps
	$(Q)$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang WARN="-Wall -Wextra -Wno-unused-parameter" \
	  CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer" \
	  $(FUZZ_BINS)
$(BUILD)/fz_%: test/fuzz/fz_%.c $(INT_A)
	$(say) FUZZ $@
	$(Q)clang $(ALL_CPPFLAGS) -std=gnu11 -O1 -g -fsanitize=fuzzer,address,undefined -o $@ $< $(INT_A) $(LIBS)
# The hl-report reader lives in cmd/ and needs jansson.
$(BUILD)/fz_hl_report: test/fuzz/fz_hl_report.c cmd/hl_read.c cmd/hl_report.h $(INT_A)
	$(say) FUZZ $@
	$(Q)clang $(ALL_CPPFLAGS) -std=gnu11 -O1 -g -fsanitize=fuzzer,address,undefined -o $@ \
	  test/fuzz/fz_hl_report.c cmd/hl_read.c $(INT_A) $(LIBS) -ljansson
fuzz-run: fuzz
	$(Q)sh test/tools/fuzz-run.sh $(FUZZ_SECONDS) $(FUZZ_BINS)

bench: all
	$(Q)sh test/bench/run.sh $(BUILD)

compat: $(BUILD)/libpapi.a
	$(Q)sh test/tools/compat.sh $(BUILD)

# The same tests built against PAPI 7.0 itself (its papi.h, -lpapi), run on
# our libpapi.so.7.0: programs of PAPI users, not rebuilt.
compat-shared: $(BUILD)/libpapi.so
	$(Q)COMPAT_SHARED=1 sh test/tools/compat.sh $(BUILD)

# Debian trixie's (PAPI 7.1) and sid's (PAPI 7.2) papi-tools and their own
# ctests on our libpapi.so.7.1 and .7.2, in debootstrap roots
# (test/tools/distro-abi.sh says where they come from; root needed).
compat-distro: all
	$(Q)sh test/tools/deps.sh distro
	$(Q)sh test/tools/distro-abi.sh $(BUILD)

# install writes nothing into the build tree (once it is built): papi.pc is
# written for this PREFIX straight into DESTDIR, so an install as another
# user (root after a user's make, a test's ordinary user) leaves BUILD alone.
install: $(BUILD)/libpapi.a $(foreach l,$(SO_LEVELS),$(BUILD)/libpapi.so.$(l).0.0) $(BUILD)/papi $(PAPI_DYN) $(FORTRAN_HEADERS) \
  $(BUILD)/libsde.a $(BUILD)/$(SDE_SO_FILE)
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(libdir)/pkgconfig $(DESTDIR)$(includedir) \
	  $(DESTDIR)$(mandir)/man1 $(DESTDIR)$(mandir)/man3 $(DESTDIR)$(mandir)/man5 \
	  $(DESTDIR)$(datadir)/bash-completion/completions $(DESTDIR)$(datadir)/zsh/site-functions \
	  $(DESTDIR)$(datadir)/fish/vendor_completions.d
	install -m 755 $(BUILD)/papi $(DESTDIR)$(bindir)/papi
	$(if $(PAPI_DYN),install -d $(DESTDIR)$(libexecdir)/papi && \
	  install -m 755 $(PAPI_DYN) $(DESTDIR)$(libexecdir)/papi/papi)
	for n in $(CLASSIC); do ln -sf papi $(DESTDIR)$(bindir)/$$n; done
	install -m 644 $(BUILD)/libpapi.a $(DESTDIR)$(libdir)/libpapi.a
	$(foreach l,$(SO_LEVELS),install -m 755 $(BUILD)/libpapi.so.$(l).0.0 $(DESTDIR)$(libdir)/libpapi.so.$(l).0.0 && \
	  ln -sf libpapi.so.$(l).0.0 $(DESTDIR)$(libdir)/libpapi.so.$(l);)
	ln -sf $(SO_NAME) $(DESTDIR)$(libdir)/libpapi.so
	$(PC_TEXT) > $(DESTDIR)$(libdir)/pkgconfig/papi.pc && chmod 644 $(DESTDIR)$(libdir)/pkgconfig/papi.pc
	$(foreach l,$(PC_LEVELS),$(call pc_text,papi-$(l),$(l).0.0,$(call pc_libs,$(l)),$(call pc_cflags,$(l))) > $(DESTDIR)$(libdir)/pkgconfig/papi-$(l).pc && \
	  chmod 644 $(DESTDIR)$(libdir)/pkgconfig/papi-$(l).pc;)
	install -m 644 $(BUILD)/libsde.a $(DESTDIR)$(libdir)/libsde.a
	install -m 755 $(BUILD)/$(SDE_SO_FILE) $(DESTDIR)$(libdir)/$(SDE_SO_FILE)
	ln -sf $(SDE_SO_FILE) $(DESTDIR)$(libdir)/$(SDE_SO_NAME)
	ln -sf $(SDE_SO_NAME) $(DESTDIR)$(libdir)/libsde.so
	install -m 644 $(INSTALL_HEADERS) $(DESTDIR)$(includedir)/
	for f in $(wildcard man/*.1); do install -m 644 $$f $(DESTDIR)$(mandir)/man1/; done
	for f in $(wildcard man/*.3); do install -m 644 $$f $(DESTDIR)$(mandir)/man3/; done
	for f in $(wildcard man/*.5); do install -m 644 $$f $(DESTDIR)$(mandir)/man5/; done
	[ ! -f completions/bash/papi ] || install -m 644 completions/bash/papi $(DESTDIR)$(datadir)/bash-completion/completions/papi
	[ ! -f completions/zsh/_papi ] || install -m 644 completions/zsh/_papi $(DESTDIR)$(datadir)/zsh/site-functions/_papi
	[ ! -f completions/fish/papi.fish ] || install -m 644 completions/fish/papi.fish $(DESTDIR)$(datadir)/fish/vendor_completions.d/papi.fish

INSTALL_HEADERS = libpapi/papi.h libpapi/papiStdEventDefs.h $(BUILD)/gen/fpapi.h $(BUILD)/gen/f90papi.h \
                  libpapi/sde/sde_lib.h libpapi/sde/sde_lib.hpp

uninstall:
	rm -f $(DESTDIR)$(bindir)/papi $(foreach n,$(CLASSIC),$(DESTDIR)$(bindir)/$(n))
	rm -f $(DESTDIR)$(libexecdir)/papi/papi
	[ ! -d $(DESTDIR)$(libexecdir)/papi ] || rmdir --ignore-fail-on-non-empty $(DESTDIR)$(libexecdir)/papi
	rm -f $(DESTDIR)$(libdir)/libpapi.a $(DESTDIR)$(libdir)/pkgconfig/papi.pc \
	  $(foreach l,$(PC_LEVELS),$(DESTDIR)$(libdir)/pkgconfig/papi-$(l).pc) \
	  $(foreach l,$(SO_LEVELS),$(DESTDIR)$(libdir)/libpapi.so.$(l).0.0 $(DESTDIR)$(libdir)/libpapi.so.$(l)) \
	  $(DESTDIR)$(libdir)/libpapi.so \
	  $(DESTDIR)$(libdir)/libsde.a $(DESTDIR)$(libdir)/$(SDE_SO_FILE) $(DESTDIR)$(libdir)/$(SDE_SO_NAME) \
	  $(DESTDIR)$(libdir)/libsde.so
	rm -f $(DESTDIR)$(includedir)/papi.h $(DESTDIR)$(includedir)/papiStdEventDefs.h \
	  $(DESTDIR)$(includedir)/fpapi.h $(DESTDIR)$(includedir)/f90papi.h \
	  $(DESTDIR)$(includedir)/sde_lib.h $(DESTDIR)$(includedir)/sde_lib.hpp
	rm -f $(foreach f,$(wildcard man/*.1),$(DESTDIR)$(mandir)/man1/$(notdir $(f))) \
	  $(foreach f,$(wildcard man/*.3),$(DESTDIR)$(mandir)/man3/$(notdir $(f))) \
	  $(foreach f,$(wildcard man/*.5),$(DESTDIR)$(mandir)/man5/$(notdir $(f)))
	rm -f $(DESTDIR)$(datadir)/bash-completion/completions/papi \
	  $(DESTDIR)$(datadir)/zsh/site-functions/_papi $(DESTDIR)$(datadir)/fish/vendor_completions.d/papi.fish

clean:
	rm -rf $(BUILD) build-san build-tsan build-fuzz $(PMU_BUILD)

-include $(shell find $(BUILD) -path '$(BUILD)/distro' -prune -o -name '*.d' -type f -print 2>/dev/null)
