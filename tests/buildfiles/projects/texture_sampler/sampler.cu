// Reads a 2D image through a texture object: MI300 has no texture units.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void sample(cudaTextureObject_t image, float* out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        out[y * width + x] = tex2D<float>(image, x + 0.5f, y + 0.5f);
    }
}

int main()
{
    const int width = 64, height = 32;
    cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
    cudaArray_t pixels;
    if (cudaMallocArray(&pixels, &format, width, height) != cudaSuccess) {
        std::printf("no device\n");
        return 0;
    }
    cudaResourceDesc resource = {};
    resource.resType = cudaResourceTypeArray;
    resource.res.array.array = pixels;
    cudaTextureDesc texture = {};
    texture.addressMode[0] = cudaAddressModeClamp;
    texture.addressMode[1] = cudaAddressModeClamp;
    texture.filterMode = cudaFilterModePoint;
    texture.readMode = cudaReadModeElementType;
    cudaTextureObject_t image = 0;
    cudaCreateTextureObject(&image, &resource, &texture, nullptr);
    float* out = nullptr;
    cudaMalloc(&out, width * height * sizeof(float));
    sample<<<dim3(width / 16, height / 16), dim3(16, 16)>>>(image, out, width, height);
    cudaError_t status = cudaDeviceSynchronize();
    cudaDestroyTextureObject(image);
    cudaFreeArray(pixels);
    cudaFree(out);
    std::printf("%s\n", cudaGetErrorString(status));
    return 0;
}
