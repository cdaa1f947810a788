// Choosing the iterative-refinement solver by name, as the cuSOLVER samples do.
#include <cstring>
#include <cuda_runtime.h>
#include <cusolverDn.h>

cusolverIRSRefinement_t refinement(const char* name) {
    if (std::strcmp(name, "NONE") == 0) return CUSOLVER_IRS_REFINE_NONE;
    if (std::strcmp(name, "CLASSICAL") == 0) return CUSOLVER_IRS_REFINE_CLASSICAL;
    if (std::strcmp(name, "CLASSICAL_GMRES") == 0) return CUSOLVER_IRS_REFINE_CLASSICAL_GMRES;
    if (std::strcmp(name, "GMRES") == 0) return CUSOLVER_IRS_REFINE_GMRES;
    if (std::strcmp(name, "GMRES_GMRES") == 0) return CUSOLVER_IRS_REFINE_GMRES_GMRES;
    if (std::strcmp(name, "GMRES_NOPCOND") == 0) return CUSOLVER_IRS_REFINE_GMRES_NOPCOND;
    if (std::strcmp(name, "DD") == 0) return CUSOLVER_PREC_DD;
    if (std::strcmp(name, "SS") == 0) return CUSOLVER_PREC_SS;
    if (std::strcmp(name, "SHT") == 0) return CUSOLVER_PREC_SHT;
    return CUSOLVER_IRS_REFINE_NOT_SET;
}
