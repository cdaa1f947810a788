// hipport-oracles: rocm-6.4 rocm-7.2
// cuDNN layers that MIOpen has with a rename or an exact argument rewrite:
// handle and stream, tensor and filter descriptors, convolution descriptor,
// activation, pooling, softmax, batch normalisation and dropout.
#include <cudnn.h>
#include <cuda_runtime.h>

#define CHECK(call) do { cudnnStatus_t s_ = (call); if (s_ != CUDNN_STATUS_SUCCESS) return s_; } while (0)

cudnnStatus_t describe(cudnnTensorDescriptor_t x, cudnnTensorDescriptor_t nhwc,
                       cudnnFilterDescriptor_t w, cudnnConvolutionDescriptor_t conv,
                       int n, int c, int h, int wd, int *out)
{
    CHECK(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, wd));
    CHECK(cudnnSetTensor4dDescriptor(nhwc, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, n, c, h, wd));
    CHECK(cudnnSetFilter4dDescriptor(w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 8, c, 3, 3));
    CHECK(cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 1, 1, 1,
                                          CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    CHECK(cudnnSetConvolutionGroupCount(conv, 1));
    return cudnnGetConvolution2dForwardOutputDim(conv, x, w, &out[0], &out[1], &out[2], &out[3]);
}

cudnnStatus_t layers(cudaStream_t stream, cudnnTensorDescriptor_t x, const float *in, float *out,
                     cudnnTensorDescriptor_t bn, float *scale, float *bias, float *mean, float *var,
                     void *states, void *reserve)
{
    cudnnHandle_t handle;
    CHECK(cudnnCreate(&handle));
    CHECK(cudnnSetStream(handle, stream));
    const float one = 1.0f, zero = 0.0f;

    cudnnActivationDescriptor_t relu, clip;
    CHECK(cudnnCreateActivationDescriptor(&relu));
    CHECK(cudnnCreateActivationDescriptor(&clip));
    CHECK(cudnnSetActivationDescriptor(relu, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0));
    CHECK(cudnnSetActivationDescriptor(clip, CUDNN_ACTIVATION_CLIPPED_RELU,
                                       CUDNN_NOT_PROPAGATE_NAN, 6.0));
    CHECK(cudnnActivationForward(handle, relu, &one, x, in, &zero, x, out));

    cudnnPoolingDescriptor_t pool;
    CHECK(cudnnCreatePoolingDescriptor(&pool));
    CHECK(cudnnSetPooling2dDescriptor(pool, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN,
                                      2, 2, 0, 0, 2, 2));
    int dims[4];
    CHECK(cudnnGetPooling2dForwardOutputDim(pool, x, &dims[0], &dims[1], &dims[2], &dims[3]));
    CHECK(cudnnPoolingForward(handle, pool, &one, x, in, &zero, x, out));

    CHECK(cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL,
                              &one, x, in, &zero, x, out));

    CHECK(cudnnDeriveBNTensorDescriptor(bn, x, CUDNN_BATCHNORM_SPATIAL));
    CHECK(cudnnBatchNormalizationForwardInference(handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero,
                                                  x, in, x, out, bn, scale, bias, mean, var,
                                                  1e-5));

    cudnnDropoutDescriptor_t drop;
    size_t states_size, reserve_size;
    CHECK(cudnnCreateDropoutDescriptor(&drop));
    CHECK(cudnnDropoutGetStatesSize(handle, &states_size));
    CHECK(cudnnDropoutGetReserveSpaceSize(x, &reserve_size));
    CHECK(cudnnSetDropoutDescriptor(drop, handle, 0.5f, states, states_size, 1234ULL));
    CHECK(cudnnDropoutForward(handle, drop, x, in, x, out, reserve, reserve_size));

    cudnnDestroyDropoutDescriptor(drop);
    cudnnDestroyPoolingDescriptor(pool);
    cudnnDestroyActivationDescriptor(clip);
    cudnnDestroyActivationDescriptor(relu);
    return cudnnDestroy(handle);
}
