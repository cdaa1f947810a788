// An L2 access-policy window on a stream (CUDA's persisting-accesses example).
#include <cuda_runtime.h>

cudaError_t keep_in_l2(cudaStream_t stream, void* data, size_t bytes) {
    cudaStreamAttrValue attribute = {};
    attribute.accessPolicyWindow.base_ptr = data;
    attribute.accessPolicyWindow.num_bytes = bytes;
    attribute.accessPolicyWindow.hitRatio = 0.6f;
    attribute.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    attribute.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    cudaStreamAttrID id = cudaStreamAttributeAccessPolicyWindow;
    cudaError_t status = cudaStreamSetAttribute(stream, id, &attribute);
    if (status != cudaSuccess) return status;
    cudaStreamAttrValue current;
    status = cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &current);
    if (status == cudaSuccess && current.accessPolicyWindow.num_bytes == 0) {
        attribute.accessPolicyWindow.num_bytes = 0;
        status = cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &attribute);
    }
    return status;
}
