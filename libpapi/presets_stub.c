/* presets_stub.c: TEMPORARY stand-in for the presets module: knows the preset names and codes, loads no tables. */
/*
 * Replaced by the presets module (presets.c) when it lands: delete this file
 * then. Until preset tables are loaded nothing can be counted, so every
 * preset is named and listed but reported as not available here (honest).
 * No user-defined events exist yet.
 */
#include <string.h>

#include "internal.h"

/* The preset names, indexed by their PAPI_*_idx. */
static const char *const preset_names[PAPI_END_idx] = {
	[PAPI_L1_DCM_idx] = "PAPI_L1_DCM",
	[PAPI_L1_ICM_idx] = "PAPI_L1_ICM",
	[PAPI_L2_DCM_idx] = "PAPI_L2_DCM",
	[PAPI_L2_ICM_idx] = "PAPI_L2_ICM",
	[PAPI_L3_DCM_idx] = "PAPI_L3_DCM",
	[PAPI_L3_ICM_idx] = "PAPI_L3_ICM",
	[PAPI_L1_TCM_idx] = "PAPI_L1_TCM",
	[PAPI_L2_TCM_idx] = "PAPI_L2_TCM",
	[PAPI_L3_TCM_idx] = "PAPI_L3_TCM",
	[PAPI_CA_SNP_idx] = "PAPI_CA_SNP",
	[PAPI_CA_SHR_idx] = "PAPI_CA_SHR",
	[PAPI_CA_CLN_idx] = "PAPI_CA_CLN",
	[PAPI_CA_INV_idx] = "PAPI_CA_INV",
	[PAPI_CA_ITV_idx] = "PAPI_CA_ITV",
	[PAPI_L3_LDM_idx] = "PAPI_L3_LDM",
	[PAPI_L3_STM_idx] = "PAPI_L3_STM",
	[PAPI_BRU_IDL_idx] = "PAPI_BRU_IDL",
	[PAPI_FXU_IDL_idx] = "PAPI_FXU_IDL",
	[PAPI_FPU_IDL_idx] = "PAPI_FPU_IDL",
	[PAPI_LSU_IDL_idx] = "PAPI_LSU_IDL",
	[PAPI_TLB_DM_idx] = "PAPI_TLB_DM",
	[PAPI_TLB_IM_idx] = "PAPI_TLB_IM",
	[PAPI_TLB_TL_idx] = "PAPI_TLB_TL",
	[PAPI_L1_LDM_idx] = "PAPI_L1_LDM",
	[PAPI_L1_STM_idx] = "PAPI_L1_STM",
	[PAPI_L2_LDM_idx] = "PAPI_L2_LDM",
	[PAPI_L2_STM_idx] = "PAPI_L2_STM",
	[PAPI_BTAC_M_idx] = "PAPI_BTAC_M",
	[PAPI_PRF_DM_idx] = "PAPI_PRF_DM",
	[PAPI_L3_DCH_idx] = "PAPI_L3_DCH",
	[PAPI_TLB_SD_idx] = "PAPI_TLB_SD",
	[PAPI_CSR_FAL_idx] = "PAPI_CSR_FAL",
	[PAPI_CSR_SUC_idx] = "PAPI_CSR_SUC",
	[PAPI_CSR_TOT_idx] = "PAPI_CSR_TOT",
	[PAPI_MEM_SCY_idx] = "PAPI_MEM_SCY",
	[PAPI_MEM_RCY_idx] = "PAPI_MEM_RCY",
	[PAPI_MEM_WCY_idx] = "PAPI_MEM_WCY",
	[PAPI_STL_ICY_idx] = "PAPI_STL_ICY",
	[PAPI_FUL_ICY_idx] = "PAPI_FUL_ICY",
	[PAPI_STL_CCY_idx] = "PAPI_STL_CCY",
	[PAPI_FUL_CCY_idx] = "PAPI_FUL_CCY",
	[PAPI_HW_INT_idx] = "PAPI_HW_INT",
	[PAPI_BR_UCN_idx] = "PAPI_BR_UCN",
	[PAPI_BR_CN_idx] = "PAPI_BR_CN",
	[PAPI_BR_TKN_idx] = "PAPI_BR_TKN",
	[PAPI_BR_NTK_idx] = "PAPI_BR_NTK",
	[PAPI_BR_MSP_idx] = "PAPI_BR_MSP",
	[PAPI_BR_PRC_idx] = "PAPI_BR_PRC",
	[PAPI_FMA_INS_idx] = "PAPI_FMA_INS",
	[PAPI_TOT_IIS_idx] = "PAPI_TOT_IIS",
	[PAPI_TOT_INS_idx] = "PAPI_TOT_INS",
	[PAPI_INT_INS_idx] = "PAPI_INT_INS",
	[PAPI_FP_INS_idx] = "PAPI_FP_INS",
	[PAPI_LD_INS_idx] = "PAPI_LD_INS",
	[PAPI_SR_INS_idx] = "PAPI_SR_INS",
	[PAPI_BR_INS_idx] = "PAPI_BR_INS",
	[PAPI_VEC_INS_idx] = "PAPI_VEC_INS",
	[PAPI_RES_STL_idx] = "PAPI_RES_STL",
	[PAPI_FP_STAL_idx] = "PAPI_FP_STAL",
	[PAPI_TOT_CYC_idx] = "PAPI_TOT_CYC",
	[PAPI_LST_INS_idx] = "PAPI_LST_INS",
	[PAPI_SYC_INS_idx] = "PAPI_SYC_INS",
	[PAPI_L1_DCH_idx] = "PAPI_L1_DCH",
	[PAPI_L2_DCH_idx] = "PAPI_L2_DCH",
	[PAPI_L1_DCA_idx] = "PAPI_L1_DCA",
	[PAPI_L2_DCA_idx] = "PAPI_L2_DCA",
	[PAPI_L3_DCA_idx] = "PAPI_L3_DCA",
	[PAPI_L1_DCR_idx] = "PAPI_L1_DCR",
	[PAPI_L2_DCR_idx] = "PAPI_L2_DCR",
	[PAPI_L3_DCR_idx] = "PAPI_L3_DCR",
	[PAPI_L1_DCW_idx] = "PAPI_L1_DCW",
	[PAPI_L2_DCW_idx] = "PAPI_L2_DCW",
	[PAPI_L3_DCW_idx] = "PAPI_L3_DCW",
	[PAPI_L1_ICH_idx] = "PAPI_L1_ICH",
	[PAPI_L2_ICH_idx] = "PAPI_L2_ICH",
	[PAPI_L3_ICH_idx] = "PAPI_L3_ICH",
	[PAPI_L1_ICA_idx] = "PAPI_L1_ICA",
	[PAPI_L2_ICA_idx] = "PAPI_L2_ICA",
	[PAPI_L3_ICA_idx] = "PAPI_L3_ICA",
	[PAPI_L1_ICR_idx] = "PAPI_L1_ICR",
	[PAPI_L2_ICR_idx] = "PAPI_L2_ICR",
	[PAPI_L3_ICR_idx] = "PAPI_L3_ICR",
	[PAPI_L1_ICW_idx] = "PAPI_L1_ICW",
	[PAPI_L2_ICW_idx] = "PAPI_L2_ICW",
	[PAPI_L3_ICW_idx] = "PAPI_L3_ICW",
	[PAPI_L1_TCH_idx] = "PAPI_L1_TCH",
	[PAPI_L2_TCH_idx] = "PAPI_L2_TCH",
	[PAPI_L3_TCH_idx] = "PAPI_L3_TCH",
	[PAPI_L1_TCA_idx] = "PAPI_L1_TCA",
	[PAPI_L2_TCA_idx] = "PAPI_L2_TCA",
	[PAPI_L3_TCA_idx] = "PAPI_L3_TCA",
	[PAPI_L1_TCR_idx] = "PAPI_L1_TCR",
	[PAPI_L2_TCR_idx] = "PAPI_L2_TCR",
	[PAPI_L3_TCR_idx] = "PAPI_L3_TCR",
	[PAPI_L1_TCW_idx] = "PAPI_L1_TCW",
	[PAPI_L2_TCW_idx] = "PAPI_L2_TCW",
	[PAPI_L3_TCW_idx] = "PAPI_L3_TCW",
	[PAPI_FML_INS_idx] = "PAPI_FML_INS",
	[PAPI_FAD_INS_idx] = "PAPI_FAD_INS",
	[PAPI_FDV_INS_idx] = "PAPI_FDV_INS",
	[PAPI_FSQ_INS_idx] = "PAPI_FSQ_INS",
	[PAPI_FNV_INS_idx] = "PAPI_FNV_INS",
	[PAPI_FP_OPS_idx] = "PAPI_FP_OPS",
	[PAPI_SP_OPS_idx] = "PAPI_SP_OPS",
	[PAPI_DP_OPS_idx] = "PAPI_DP_OPS",
	[PAPI_VEC_SP_idx] = "PAPI_VEC_SP",
	[PAPI_VEC_DP_idx] = "PAPI_VEC_DP",
	[PAPI_REF_CYC_idx] = "PAPI_REF_CYC",
};

static int preset_index(int code)
{
	if ((code & PAPI_UE_MASK) != PAPI_PRESET_MASK)
		return -1;
	int i = code & PAPI_PRESET_AND_MASK;
	return i < PAPI_END_idx ? i : -1;
}

static int is_user(int code)
{
	return (code & PAPI_UE_MASK) == PAPI_UE_MASK;
}

/* presets_name_to_code: the code of preset name (case-sensitive, as PAPI 7);
 * PAPI_ENOEVNT when no preset or user event has that name. A linear scan of
 * the 108 names: this stub is temporary. */
int presets_name_to_code(const char *name, int *code)
{
	for (int i = 0; i < PAPI_END_idx; i++)
		if (preset_names[i] && strcmp(name, preset_names[i]) == 0) {
			*code = PAPI_PRESET_MASK | i;
			return PAPI_OK;
		}
	return PAPI_ENOEVNT;
}

/* presets_code_to_name: copy the name into name (PAPI_MAX_STR_LEN bytes).
 * PAPI_ENOTPRESET for a preset code out of range, PAPI_ENOEVNT for user codes. */
int presets_code_to_name(int code, char *name)
{
	int i = preset_index(code);
	if (is_user(code))
		return PAPI_ENOEVNT;
	if (i < 0 || !preset_names[i])
		return PAPI_ENOTPRESET;
	strcpy(name, preset_names[i]);
	return PAPI_OK;
}

/* presets_info: the name only; descriptions come with the preset tables.
 * PAPI_ENOTPRESET / PAPI_ENOEVNT as presets_code_to_name. */
int presets_info(int code, PAPI_event_info_t *info)
{
	char name[PAPI_MAX_STR_LEN];
	int r = presets_code_to_name(code, name);
	if (r != PAPI_OK)
		return r;
	memset(info, 0, sizeof *info);
	info->event_code = (unsigned)code;
	strcpy(info->symbol, name);
	return PAPI_OK;
}

/* presets_enum: PAPI_ENUM_FIRST and PAPI_ENUM_EVENTS walk every preset;
 * availability filters (PAPI_PRESET_ENUM_AVAIL, categories) find none, since
 * no preset is available yet. PAPI_EINVAL for a code out of range, PAPI_ENOEVNT
 * at the end or for user codes (none are defined). */
int presets_enum(int *code, int modifier)
{
	if (is_user(*code))
		return PAPI_ENOEVNT;
	if (modifier == PAPI_ENUM_FIRST) {
		*code = PAPI_PRESET_MASK;
		return PAPI_OK;
	}
	int i = preset_index(*code);
	if (i < 0)
		return PAPI_EINVAL;
	if (modifier != PAPI_ENUM_EVENTS || i + 1 >= PAPI_END_idx)
		return PAPI_ENOEVNT;
	*code = PAPI_PRESET_MASK | (i + 1);
	return PAPI_OK;
}

/* presets_query: no preset tables are loaded, so no preset is available:
 * PAPI_ENOEVNT (PAPI_ENOTPRESET for a code out of range). */
int presets_query(int code)
{
	if (!is_user(code) && preset_index(code) < 0)
		return PAPI_ENOTPRESET;
	return PAPI_ENOEVNT;
}
