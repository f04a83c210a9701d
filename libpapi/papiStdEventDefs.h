/* papiStdEventDefs.h: the preset event codes (PAPI 7.0 numbering) and event code masks. */
#ifndef _PAPISTDEVENTDEFS
#define _PAPISTDEVENTDEFS

/*
 * An event code is a 32-bit int whose two top bits say what kind of event it
 * is: presets have bit 31 set, native events bit 30, user-defined events both.
 * The remaining bits are an index.  Because bit 31 is the sign bit, clear the
 * kind bits with the *_AND_MASK values rather than by XOR.
 */
#define PAPI_PRESET_MASK	((int)0x80000000)
#define PAPI_NATIVE_MASK	((int)0x40000000)
#define PAPI_UE_MASK		((int)0xC0000000)
#define PAPI_PRESET_AND_MASK	0x7FFFFFFF
#define PAPI_NATIVE_AND_MASK	0xBFFFFFFF
#define PAPI_UE_AND_MASK	0x3FFFFFFF

#define PAPI_MAX_PRESET_EVENTS	128	/* room in the preset table */
#define PAPI_MAX_USER_EVENTS	50	/* room for user-defined events */
#define USER_EVENT_OPERATION_LEN 512	/* longest formula of a user-defined event */

/*
 * Preset indexes.  The order is part of the ABI: programs compiled against
 * PAPI carry these numbers, so entries are never reordered or removed and new
 * ones go just before PAPI_END_idx.
 */
enum {
	PAPI_L1_DCM_idx = 0,	/* L1 data cache misses */
	PAPI_L1_ICM_idx,	/* L1 instruction cache misses */
	PAPI_L2_DCM_idx,	/* L2 data cache misses */
	PAPI_L2_ICM_idx,	/* L2 instruction cache misses */
	PAPI_L3_DCM_idx,	/* L3 data cache misses */
	PAPI_L3_ICM_idx,	/* L3 instruction cache misses */
	PAPI_L1_TCM_idx,	/* L1 cache misses, all kinds */
	PAPI_L2_TCM_idx,	/* L2 cache misses, all kinds */
	PAPI_L3_TCM_idx,	/* L3 cache misses, all kinds */
	PAPI_CA_SNP_idx,	/* snoop requests */
	PAPI_CA_SHR_idx,	/* requests for exclusive access to a shared line */
	PAPI_CA_CLN_idx,	/* requests for exclusive access to a clean line */
	PAPI_CA_INV_idx,	/* cache line invalidation requests */
	PAPI_CA_ITV_idx,	/* cache line intervention requests */
	PAPI_L3_LDM_idx,	/* L3 load misses */
	PAPI_L3_STM_idx,	/* L3 store misses */
	PAPI_BRU_IDL_idx,	/* cycles the branch units idle */
	PAPI_FXU_IDL_idx,	/* cycles the integer units idle */
	PAPI_FPU_IDL_idx,	/* cycles the floating point units idle */
	PAPI_LSU_IDL_idx,	/* cycles the load/store units idle */
	PAPI_TLB_DM_idx,	/* data TLB misses */
	PAPI_TLB_IM_idx,	/* instruction TLB misses */
	PAPI_TLB_TL_idx,	/* TLB misses, all kinds */
	PAPI_L1_LDM_idx,	/* L1 load misses */
	PAPI_L1_STM_idx,	/* L1 store misses */
	PAPI_L2_LDM_idx,	/* L2 load misses */
	PAPI_L2_STM_idx,	/* L2 store misses */
	PAPI_BTAC_M_idx,	/* branch target address cache misses */
	PAPI_PRF_DM_idx,	/* data prefetch misses */
	PAPI_L3_DCH_idx,	/* L3 data cache hits */
	PAPI_TLB_SD_idx,	/* TLB shootdowns */
	PAPI_CSR_FAL_idx,	/* failed store-conditional instructions */
	PAPI_CSR_SUC_idx,	/* successful store-conditional instructions */
	PAPI_CSR_TOT_idx,	/* store-conditional instructions */
	PAPI_MEM_SCY_idx,	/* cycles stalled on any memory access */
	PAPI_MEM_RCY_idx,	/* cycles stalled on memory reads */
	PAPI_MEM_WCY_idx,	/* cycles stalled on memory writes */
	PAPI_STL_ICY_idx,	/* cycles issuing no instruction */
	PAPI_FUL_ICY_idx,	/* cycles issuing the maximum number of instructions */
	PAPI_STL_CCY_idx,	/* cycles completing no instruction */
	PAPI_FUL_CCY_idx,	/* cycles completing the maximum number of instructions */
	PAPI_HW_INT_idx,	/* hardware interrupts */
	PAPI_BR_UCN_idx,	/* unconditional branches */
	PAPI_BR_CN_idx,		/* conditional branches */
	PAPI_BR_TKN_idx,	/* conditional branches taken */
	PAPI_BR_NTK_idx,	/* conditional branches not taken */
	PAPI_BR_MSP_idx,	/* conditional branches mispredicted */
	PAPI_BR_PRC_idx,	/* conditional branches predicted correctly */
	PAPI_FMA_INS_idx,	/* fused multiply-add instructions */
	PAPI_TOT_IIS_idx,	/* instructions issued */
	PAPI_TOT_INS_idx,	/* instructions completed */
	PAPI_INT_INS_idx,	/* integer instructions */
	PAPI_FP_INS_idx,	/* floating point instructions */
	PAPI_LD_INS_idx,	/* load instructions */
	PAPI_SR_INS_idx,	/* store instructions */
	PAPI_BR_INS_idx,	/* branch instructions */
	PAPI_VEC_INS_idx,	/* vector/SIMD instructions */
	PAPI_RES_STL_idx,	/* cycles stalled on any resource */
	PAPI_FP_STAL_idx,	/* cycles the FP units stalled */
	PAPI_TOT_CYC_idx,	/* total cycles */
	PAPI_LST_INS_idx,	/* load and store instructions */
	PAPI_SYC_INS_idx,	/* synchronization instructions */
	PAPI_L1_DCH_idx,	/* L1 data cache hits */
	PAPI_L2_DCH_idx,	/* L2 data cache hits */
	PAPI_L1_DCA_idx,	/* L1 data cache accesses */
	PAPI_L2_DCA_idx,	/* L2 data cache accesses */
	PAPI_L3_DCA_idx,	/* L3 data cache accesses */
	PAPI_L1_DCR_idx,	/* L1 data cache reads */
	PAPI_L2_DCR_idx,	/* L2 data cache reads */
	PAPI_L3_DCR_idx,	/* L3 data cache reads */
	PAPI_L1_DCW_idx,	/* L1 data cache writes */
	PAPI_L2_DCW_idx,	/* L2 data cache writes */
	PAPI_L3_DCW_idx,	/* L3 data cache writes */
	PAPI_L1_ICH_idx,	/* L1 instruction cache hits */
	PAPI_L2_ICH_idx,	/* L2 instruction cache hits */
	PAPI_L3_ICH_idx,	/* L3 instruction cache hits */
	PAPI_L1_ICA_idx,	/* L1 instruction cache accesses */
	PAPI_L2_ICA_idx,	/* L2 instruction cache accesses */
	PAPI_L3_ICA_idx,	/* L3 instruction cache accesses */
	PAPI_L1_ICR_idx,	/* L1 instruction cache reads */
	PAPI_L2_ICR_idx,	/* L2 instruction cache reads */
	PAPI_L3_ICR_idx,	/* L3 instruction cache reads */
	PAPI_L1_ICW_idx,	/* L1 instruction cache writes */
	PAPI_L2_ICW_idx,	/* L2 instruction cache writes */
	PAPI_L3_ICW_idx,	/* L3 instruction cache writes */
	PAPI_L1_TCH_idx,	/* L1 cache hits, all kinds */
	PAPI_L2_TCH_idx,	/* L2 cache hits, all kinds */
	PAPI_L3_TCH_idx,	/* L3 cache hits, all kinds */
	PAPI_L1_TCA_idx,	/* L1 cache accesses, all kinds */
	PAPI_L2_TCA_idx,	/* L2 cache accesses, all kinds */
	PAPI_L3_TCA_idx,	/* L3 cache accesses, all kinds */
	PAPI_L1_TCR_idx,	/* L1 cache reads, all kinds */
	PAPI_L2_TCR_idx,	/* L2 cache reads, all kinds */
	PAPI_L3_TCR_idx,	/* L3 cache reads, all kinds */
	PAPI_L1_TCW_idx,	/* L1 cache writes, all kinds */
	PAPI_L2_TCW_idx,	/* L2 cache writes, all kinds */
	PAPI_L3_TCW_idx,	/* L3 cache writes, all kinds */
	PAPI_FML_INS_idx,	/* floating point multiplies */
	PAPI_FAD_INS_idx,	/* floating point adds */
	PAPI_FDV_INS_idx,	/* floating point divides */
	PAPI_FSQ_INS_idx,	/* floating point square roots */
	PAPI_FNV_INS_idx,	/* floating point inverses */
	PAPI_FP_OPS_idx,	/* floating point operations */
	PAPI_SP_OPS_idx,	/* single precision operations, vector lanes counted */
	PAPI_DP_OPS_idx,	/* double precision operations, vector lanes counted */
	PAPI_VEC_SP_idx,	/* single precision vector instructions */
	PAPI_VEC_DP_idx,	/* double precision vector instructions */
	PAPI_REF_CYC_idx,	/* reference (constant rate) cycles */
	PAPI_END_idx		/* number of presets; keep last */
};

#define PAPI_L1_DCM	(PAPI_L1_DCM_idx | PAPI_PRESET_MASK)
#define PAPI_L1_ICM	(PAPI_L1_ICM_idx | PAPI_PRESET_MASK)
#define PAPI_L2_DCM	(PAPI_L2_DCM_idx | PAPI_PRESET_MASK)
#define PAPI_L2_ICM	(PAPI_L2_ICM_idx | PAPI_PRESET_MASK)
#define PAPI_L3_DCM	(PAPI_L3_DCM_idx | PAPI_PRESET_MASK)
#define PAPI_L3_ICM	(PAPI_L3_ICM_idx | PAPI_PRESET_MASK)
#define PAPI_L1_TCM	(PAPI_L1_TCM_idx | PAPI_PRESET_MASK)
#define PAPI_L2_TCM	(PAPI_L2_TCM_idx | PAPI_PRESET_MASK)
#define PAPI_L3_TCM	(PAPI_L3_TCM_idx | PAPI_PRESET_MASK)
#define PAPI_CA_SNP	(PAPI_CA_SNP_idx | PAPI_PRESET_MASK)
#define PAPI_CA_SHR	(PAPI_CA_SHR_idx | PAPI_PRESET_MASK)
#define PAPI_CA_CLN	(PAPI_CA_CLN_idx | PAPI_PRESET_MASK)
#define PAPI_CA_INV	(PAPI_CA_INV_idx | PAPI_PRESET_MASK)
#define PAPI_CA_ITV	(PAPI_CA_ITV_idx | PAPI_PRESET_MASK)
#define PAPI_L3_LDM	(PAPI_L3_LDM_idx | PAPI_PRESET_MASK)
#define PAPI_L3_STM	(PAPI_L3_STM_idx | PAPI_PRESET_MASK)
#define PAPI_BRU_IDL	(PAPI_BRU_IDL_idx | PAPI_PRESET_MASK)
#define PAPI_FXU_IDL	(PAPI_FXU_IDL_idx | PAPI_PRESET_MASK)
#define PAPI_FPU_IDL	(PAPI_FPU_IDL_idx | PAPI_PRESET_MASK)
#define PAPI_LSU_IDL	(PAPI_LSU_IDL_idx | PAPI_PRESET_MASK)
#define PAPI_TLB_DM	(PAPI_TLB_DM_idx | PAPI_PRESET_MASK)
#define PAPI_TLB_IM	(PAPI_TLB_IM_idx | PAPI_PRESET_MASK)
#define PAPI_TLB_TL	(PAPI_TLB_TL_idx | PAPI_PRESET_MASK)
#define PAPI_L1_LDM	(PAPI_L1_LDM_idx | PAPI_PRESET_MASK)
#define PAPI_L1_STM	(PAPI_L1_STM_idx | PAPI_PRESET_MASK)
#define PAPI_L2_LDM	(PAPI_L2_LDM_idx | PAPI_PRESET_MASK)
#define PAPI_L2_STM	(PAPI_L2_STM_idx | PAPI_PRESET_MASK)
#define PAPI_BTAC_M	(PAPI_BTAC_M_idx | PAPI_PRESET_MASK)
#define PAPI_PRF_DM	(PAPI_PRF_DM_idx | PAPI_PRESET_MASK)
#define PAPI_L3_DCH	(PAPI_L3_DCH_idx | PAPI_PRESET_MASK)
#define PAPI_TLB_SD	(PAPI_TLB_SD_idx | PAPI_PRESET_MASK)
#define PAPI_CSR_FAL	(PAPI_CSR_FAL_idx | PAPI_PRESET_MASK)
#define PAPI_CSR_SUC	(PAPI_CSR_SUC_idx | PAPI_PRESET_MASK)
#define PAPI_CSR_TOT	(PAPI_CSR_TOT_idx | PAPI_PRESET_MASK)
#define PAPI_MEM_SCY	(PAPI_MEM_SCY_idx | PAPI_PRESET_MASK)
#define PAPI_MEM_RCY	(PAPI_MEM_RCY_idx | PAPI_PRESET_MASK)
#define PAPI_MEM_WCY	(PAPI_MEM_WCY_idx | PAPI_PRESET_MASK)
#define PAPI_STL_ICY	(PAPI_STL_ICY_idx | PAPI_PRESET_MASK)
#define PAPI_FUL_ICY	(PAPI_FUL_ICY_idx | PAPI_PRESET_MASK)
#define PAPI_STL_CCY	(PAPI_STL_CCY_idx | PAPI_PRESET_MASK)
#define PAPI_FUL_CCY	(PAPI_FUL_CCY_idx | PAPI_PRESET_MASK)
#define PAPI_HW_INT	(PAPI_HW_INT_idx | PAPI_PRESET_MASK)
#define PAPI_BR_UCN	(PAPI_BR_UCN_idx | PAPI_PRESET_MASK)
#define PAPI_BR_CN	(PAPI_BR_CN_idx | PAPI_PRESET_MASK)
#define PAPI_BR_TKN	(PAPI_BR_TKN_idx | PAPI_PRESET_MASK)
#define PAPI_BR_NTK	(PAPI_BR_NTK_idx | PAPI_PRESET_MASK)
#define PAPI_BR_MSP	(PAPI_BR_MSP_idx | PAPI_PRESET_MASK)
#define PAPI_BR_PRC	(PAPI_BR_PRC_idx | PAPI_PRESET_MASK)
#define PAPI_FMA_INS	(PAPI_FMA_INS_idx | PAPI_PRESET_MASK)
#define PAPI_TOT_IIS	(PAPI_TOT_IIS_idx | PAPI_PRESET_MASK)
#define PAPI_TOT_INS	(PAPI_TOT_INS_idx | PAPI_PRESET_MASK)
#define PAPI_INT_INS	(PAPI_INT_INS_idx | PAPI_PRESET_MASK)
#define PAPI_FP_INS	(PAPI_FP_INS_idx | PAPI_PRESET_MASK)
#define PAPI_LD_INS	(PAPI_LD_INS_idx | PAPI_PRESET_MASK)
#define PAPI_SR_INS	(PAPI_SR_INS_idx | PAPI_PRESET_MASK)
#define PAPI_BR_INS	(PAPI_BR_INS_idx | PAPI_PRESET_MASK)
#define PAPI_VEC_INS	(PAPI_VEC_INS_idx | PAPI_PRESET_MASK)
#define PAPI_RES_STL	(PAPI_RES_STL_idx | PAPI_PRESET_MASK)
#define PAPI_FP_STAL	(PAPI_FP_STAL_idx | PAPI_PRESET_MASK)
#define PAPI_TOT_CYC	(PAPI_TOT_CYC_idx | PAPI_PRESET_MASK)
#define PAPI_LST_INS	(PAPI_LST_INS_idx | PAPI_PRESET_MASK)
#define PAPI_SYC_INS	(PAPI_SYC_INS_idx | PAPI_PRESET_MASK)
#define PAPI_L1_DCH	(PAPI_L1_DCH_idx | PAPI_PRESET_MASK)
#define PAPI_L2_DCH	(PAPI_L2_DCH_idx | PAPI_PRESET_MASK)
#define PAPI_L1_DCA	(PAPI_L1_DCA_idx | PAPI_PRESET_MASK)
#define PAPI_L2_DCA	(PAPI_L2_DCA_idx | PAPI_PRESET_MASK)
#define PAPI_L3_DCA	(PAPI_L3_DCA_idx | PAPI_PRESET_MASK)
#define PAPI_L1_DCR	(PAPI_L1_DCR_idx | PAPI_PRESET_MASK)
#define PAPI_L2_DCR	(PAPI_L2_DCR_idx | PAPI_PRESET_MASK)
#define PAPI_L3_DCR	(PAPI_L3_DCR_idx | PAPI_PRESET_MASK)
#define PAPI_L1_DCW	(PAPI_L1_DCW_idx | PAPI_PRESET_MASK)
#define PAPI_L2_DCW	(PAPI_L2_DCW_idx | PAPI_PRESET_MASK)
#define PAPI_L3_DCW	(PAPI_L3_DCW_idx | PAPI_PRESET_MASK)
#define PAPI_L1_ICH	(PAPI_L1_ICH_idx | PAPI_PRESET_MASK)
#define PAPI_L2_ICH	(PAPI_L2_ICH_idx | PAPI_PRESET_MASK)
#define PAPI_L3_ICH	(PAPI_L3_ICH_idx | PAPI_PRESET_MASK)
#define PAPI_L1_ICA	(PAPI_L1_ICA_idx | PAPI_PRESET_MASK)
#define PAPI_L2_ICA	(PAPI_L2_ICA_idx | PAPI_PRESET_MASK)
#define PAPI_L3_ICA	(PAPI_L3_ICA_idx | PAPI_PRESET_MASK)
#define PAPI_L1_ICR	(PAPI_L1_ICR_idx | PAPI_PRESET_MASK)
#define PAPI_L2_ICR	(PAPI_L2_ICR_idx | PAPI_PRESET_MASK)
#define PAPI_L3_ICR	(PAPI_L3_ICR_idx | PAPI_PRESET_MASK)
#define PAPI_L1_ICW	(PAPI_L1_ICW_idx | PAPI_PRESET_MASK)
#define PAPI_L2_ICW	(PAPI_L2_ICW_idx | PAPI_PRESET_MASK)
#define PAPI_L3_ICW	(PAPI_L3_ICW_idx | PAPI_PRESET_MASK)
#define PAPI_L1_TCH	(PAPI_L1_TCH_idx | PAPI_PRESET_MASK)
#define PAPI_L2_TCH	(PAPI_L2_TCH_idx | PAPI_PRESET_MASK)
#define PAPI_L3_TCH	(PAPI_L3_TCH_idx | PAPI_PRESET_MASK)
#define PAPI_L1_TCA	(PAPI_L1_TCA_idx | PAPI_PRESET_MASK)
#define PAPI_L2_TCA	(PAPI_L2_TCA_idx | PAPI_PRESET_MASK)
#define PAPI_L3_TCA	(PAPI_L3_TCA_idx | PAPI_PRESET_MASK)
#define PAPI_L1_TCR	(PAPI_L1_TCR_idx | PAPI_PRESET_MASK)
#define PAPI_L2_TCR	(PAPI_L2_TCR_idx | PAPI_PRESET_MASK)
#define PAPI_L3_TCR	(PAPI_L3_TCR_idx | PAPI_PRESET_MASK)
#define PAPI_L1_TCW	(PAPI_L1_TCW_idx | PAPI_PRESET_MASK)
#define PAPI_L2_TCW	(PAPI_L2_TCW_idx | PAPI_PRESET_MASK)
#define PAPI_L3_TCW	(PAPI_L3_TCW_idx | PAPI_PRESET_MASK)
#define PAPI_FML_INS	(PAPI_FML_INS_idx | PAPI_PRESET_MASK)
#define PAPI_FAD_INS	(PAPI_FAD_INS_idx | PAPI_PRESET_MASK)
#define PAPI_FDV_INS	(PAPI_FDV_INS_idx | PAPI_PRESET_MASK)
#define PAPI_FSQ_INS	(PAPI_FSQ_INS_idx | PAPI_PRESET_MASK)
#define PAPI_FNV_INS	(PAPI_FNV_INS_idx | PAPI_PRESET_MASK)
#define PAPI_FP_OPS	(PAPI_FP_OPS_idx | PAPI_PRESET_MASK)
#define PAPI_SP_OPS	(PAPI_SP_OPS_idx | PAPI_PRESET_MASK)
#define PAPI_DP_OPS	(PAPI_DP_OPS_idx | PAPI_PRESET_MASK)
#define PAPI_VEC_SP	(PAPI_VEC_SP_idx | PAPI_PRESET_MASK)
#define PAPI_VEC_DP	(PAPI_VEC_DP_idx | PAPI_PRESET_MASK)
#define PAPI_REF_CYC	(PAPI_REF_CYC_idx | PAPI_PRESET_MASK)
#define PAPI_END	(PAPI_END_idx | PAPI_PRESET_MASK)

#endif
