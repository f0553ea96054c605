#pragma once
#define TEST(suite, name) void suite##_##name##_Test()
#define EXPECT_LT(a, b) (void)((a) < (b))
#define EXPECT_EQ(a, b) (void)((a) == (b))
#define EXPECT_TRUE(a) (void)(a)
